import type { HttpRequest, HttpResponse, HttpTransport, UploadRequest } from './transport';

/**
 * The real transport: global `fetch` for calls. Uploads use XMLHttpRequest where it exists (browser tabs,
 * dedicated and shared workers), because fetch reports no upload progress; where it does not (Node, so
 * the unit tests), they go through fetch and report progress once, with everything sent, when the answer
 * arrives.
 */
export const fetchTransport: HttpTransport = {
  async request({ method, url, headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    // Called as a free function: a detached `fetch` property throws "Illegal invocation" in browsers.
    const response = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(signal ? { signal } : {}),
    });
    return wrapFetchResponse(response);
  },

  upload(request: UploadRequest): Promise<HttpResponse> {
    return typeof XMLHttpRequest !== 'undefined' ? uploadWithXhr(request) : uploadWithFetch(request);
  },
};

function wrapFetchResponse(response: Response): HttpResponse {
  return { status: response.status, headers: response.headers, json: () => response.json() as Promise<unknown> };
}

/** The payload size of a form: file sizes plus text lengths (without the multipart framing). */
export function formSize(form: FormData): number {
  let size = 0;
  form.forEach((value) => {
    size += typeof value === 'string' ? new TextEncoder().encode(value).length : value.size;
  });
  return size;
}

async function uploadWithFetch({ url, headers, form, onProgress, signal }: UploadRequest): Promise<HttpResponse> {
  const response = await fetch(url, { method: 'POST', headers, body: form, ...(signal ? { signal } : {}) });
  const total = formSize(form);
  onProgress?.(total, total);
  return wrapFetchResponse(response);
}

function uploadWithXhr({ url, headers, form, onProgress, signal }: UploadRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    let loaded = -1;
    let total = formSize(form);
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      loaded = event.loaded;
      total = event.total;
      onProgress?.(loaded, total);
    };
    xhr.onload = () => {
      // Some engines skip the last progress event; the contract promises one with everything sent.
      if (loaded !== total) onProgress?.(total, total);
      const text = xhr.responseText;
      resolve({
        status: xhr.status,
        headers: { get: (name) => xhr.getResponseHeader(name) },
        json: async () => JSON.parse(text) as unknown,
      });
    };
    xhr.onerror = () => reject(new TypeError('The upload failed: no answer from the server'));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
