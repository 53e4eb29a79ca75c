// Enable Banking authenticates every call by a JWT the application signs itself
// (RS256 with the private key it registered in the control panel; the header's
// `kid` is the application's id). A fresh one per call, valid an hour: the
// service refuses a token that lives past 24 hours, and one made per call never
// outlives the call's key. The key is read here and nowhere else, and no message
// ever quotes it; the key is opened for the call and kept nowhere.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { OutsideError } from '../../edge/http';

export const SERVICE = 'Enable Banking';

/** The application's credentials: its id (a UUID from the control panel) and its private key (PEM). */
export interface ApplicationCredentials {
  applicationId: string;
  privateKey: string;
}

/** Seconds a call's JWT is valid: an hour, as Enable Banking's own samples sign it (24 hours at most is accepted). */
export const JWT_SECONDS = 3600;

/** The PEM read as an RSA private key (PKCS#8 or PKCS#1), or an error that names the key without quoting it. */
export function applicationKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the application's private key is not a PEM private key (the .pem file the control panel downloaded).`);
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the application's private key must be an RSA key (it signs RS256); this one is ${key.asymmetricKeyType}.`);
  }
  return key;
}

/** The Authorization header's token for one call, at `now`. */
export async function callToken(app: ApplicationCredentials, now: Date): Promise<string> {
  if (!app.applicationId?.trim()) throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the application id is missing.`);
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: app.applicationId.trim() })
    .setIssuer('enablebanking.com')
    .setAudience('api.enablebanking.com')
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_SECONDS)
    .sign(applicationKey(app.privateKey));
}
