/**
 * The HTTP adapter of the REST client (design.md §5: adapters behind small interfaces). The client builds
 * URLs, headers and bodies; a transport only moves bytes, so tests can record requests or swap the network.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** Already encoded (JSON or x-www-form-urlencoded); absent for calls without a body. */
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** The answer's headers, where the transport can read them (the outbox reads `Retry-After`). */
  headers?: { get(name: string): string | null };
  /** The parsed body; rejects when the body is not JSON. */
  json(): Promise<unknown>;
}

export interface UploadRequest {
  url: string;
  /** Never a Content-Type: the transport sets multipart with its boundary. */
  headers: Record<string, string>;
  form: FormData;
  /** Bytes sent so far and in total; called at least once, with loaded === total, before the answer. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

export interface HttpTransport {
  /** Resolves with any HTTP answer, whatever its status; rejects only when no answer arrived. */
  request(request: HttpRequest): Promise<HttpResponse>;
  /** A multipart POST with upload progress; the same resolve/reject rule as `request`. */
  upload(request: UploadRequest): Promise<HttpResponse>;
}
