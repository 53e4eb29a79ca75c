// A self-signed certificate made with openssl for a test's TLS (a server of its own, a database cluster): for
// localhost and 127.0.0.1, so that a client checking the name (verify-full) accepts it with itself as the CA.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './env';

export function certificate(): { cert: Buffer; key: Buffer; certFile: string; keyFile: string } {
  const dir = tempDir();
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost'];
  const made = spawnSync('openssl', [...args, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '2', '-keyout', keyFile, '-out', certFile], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate (is it installed?): ${made.error ?? made.stderr}`);
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile, keyFile };
}
