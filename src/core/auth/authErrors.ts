// Errors the token manager raises; the UI offers "Sign In" for these.
import type { Said } from '../presentation/said';
import { ServiceError, type ServiceErrorFields } from '../http/serviceErrors';

/** No usable session: never signed in, signed out, or the refresh token lapsed or was refused. */
export class SignInRequired extends ServiceError {
  constructor(
    readonly reason: 'signed-out' | 'refresh-lapsed' | 'refresh-refused' | 'credentials-refused',
    advice: string | Said,
    fields: ServiceErrorFields = {},
  ) {
    super('unauthorized', advice, fields);
  }
}
