import { type AuthorizerOutcome } from '../outcome.js';

/**
 * One call to an authorizer, prepared once: where it goes and the exact bytes it carries, decided before anything is
 * sent, so a caller can store them first (persist before send) and then send this very object. `send` writes exactly
 * `body` to `url`; a SOAP authorization may poll its receipt afterwards (those exchanges are in the outcome).
 */
export interface PreparedCall<T> {
  /** What is being asked, as recorded: the SEFAZ WSDL operation (`NFeAutorizacao4`) or the REST route (`POST /nfse`). */
  readonly operation: string;
  readonly method: 'GET' | 'HEAD' | 'POST';
  readonly url: string;
  /** Exactly what goes on the wire; '' for a request without a body. */
  readonly body: string;
  send(): Promise<AuthorizerOutcome<T>>;
}
