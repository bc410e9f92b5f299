import {
  type AccountAnswer,
  type CountriesAnswer,
  type FileAnswer,
  type ImageAnswer,
  type PinConfirmAnswer,
  type PinRequestAnswer,
  type SessionsEndedAnswer,
  HEADER_AUTH_TOKEN,
} from '../../protocol/api';
import { path, type RestCore } from './core';
import type { AuthCalls } from '../contract/restCalls';
import type { UpdateMeInput, UploadInput } from '../contract/restInputs';

/** Spec §7 "Authentication and profile" and "Files". */
export function authCalls(core: RestCore): AuthCalls {
  return {
    /** POST /v1/auth/pin. `apiBase`: a country's own http endpoint, when it has one. */
    requestPin(phone: string, options: { apiBase?: string } = {}): Promise<PinRequestAnswer> {
      return core.send({
        call: 'requestPin',
        method: 'POST',
        path: path`/v1/auth/pin`,
        form: { phone_nr: phone },
        ...(options.apiBase ? { apiBase: options.apiBase } : {}),
      });
    },

    /** POST /v1/auth/pin/confirm: the token, the user id and the endpoints to store. */
    confirmPin(phone: string, pin: string, options: { apiBase?: string } = {}): Promise<PinConfirmAnswer> {
      return core.send({
        call: 'confirmPin',
        method: 'POST',
        path: path`/v1/auth/pin/confirm`,
        form: { phone_nr: phone, pin },
        ...(options.apiBase ? { apiBase: options.apiBase } : {}),
      });
    },

    /** GET /v1/me. */
    getMe(): Promise<AccountAnswer> {
      return core.send({ call: 'getMe', method: 'GET', path: path`/v1/me` });
    },

    /** PUT /v1/me (form): only the fields given change. */
    updateMe(fields: UpdateMeInput): Promise<AccountAnswer> {
      return core.send({
        call: 'updateMe',
        method: 'PUT',
        path: path`/v1/me`,
        form: { nickname: fields.nickname, email: fields.email, image_id: fields.imageId },
      });
    },

    /** POST /v2/me/register (json): sets the first nickname. */
    register(name: string): Promise<AccountAnswer> {
      return core.send({ call: 'register', method: 'POST', path: path`/v2/me/register`, json: { name } });
    },

    /** GET /v1/countries. */
    getCountries(): Promise<CountriesAnswer> {
      return core.send({ call: 'getCountries', method: 'GET', path: path`/v1/countries` });
    },

    /** POST /v1/auth/logout with this token (the engine's is cleared by then): ends it on the server. */
    logout(token: string, options: { signal?: AbortSignal } = {}): Promise<SessionsEndedAnswer> {
      return core.send({
        call: 'logout',
        method: 'POST',
        path: path`/v1/auth/logout`,
        headers: { [HEADER_AUTH_TOKEN]: token },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },

    /** POST /v2/filestorage/file (multipart `file`): a message attachment; send its `file.id`. */
    uploadFile(file: Blob, options: UploadInput = {}): Promise<FileAnswer> {
      return core.upload({ call: 'uploadFile', path: path`/v2/filestorage/file`, field: 'file', file, ...options });
    },

    /** POST /v1/images (multipart `image`): an avatar; its `image.id` is the image_id of updateMe and updateConversation. */
    uploadImage(image: Blob, options: UploadInput = {}): Promise<ImageAnswer> {
      return core.upload({ call: 'uploadImage', path: path`/v1/images`, field: 'image', file: image, ...options });
    },
  };
}
