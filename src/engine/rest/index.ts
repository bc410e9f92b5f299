/** The engine's REST client (spec §7): see client.ts for the calls, core.ts for headers and errors. */
export { createRestClient, type RestClient } from './client';
export type { RestClientOptions, RestSession } from './core';
export { FALLBACKS, fallbackFor, type RestCallName } from './fallbacks';
export { fetchTransport } from './fetchTransport';
export { CLIENT_PROJECT } from './headers';
export type * from '../contract/restInputs';
export type { HttpMethod, HttpRequest, HttpResponse, HttpTransport, UploadRequest } from './transport';
