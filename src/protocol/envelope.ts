/** Every HTTP answer of the API is wrapped in one of these (spec §7). */
export interface ApiSuccess<T> {
  success: true;
  data: T;
}

export interface ApiFailure {
  success: false;
  /** The HTTP status, repeated in the body so a client never has to read headers. */
  status: number;
  message: string;
}

export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;
