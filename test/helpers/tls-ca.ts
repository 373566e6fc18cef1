/**
 * A private CA made by `openssl` for a test, and a certificate it signs for a server on this
 * machine (`localhost`, 127.0.0.1); and a `redis-server` that speaks TLS only, with them.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { freePort } from '../../src/redis/local-server.js';
import { type RedisProcess, startRedisServer } from './redis-servers.js';

export interface TestCa {
  /** The CA's certificate (PEM), the file REDIS_TLS_CA_FILE names. */
  caFile: string;
  ca: Buffer;
  /** The server's certificate and key, signed by the CA. */
  certFile: string;
  keyFile: string;
}

/** A CA and a server certificate in `dir`, valid for a day (EC keys: quick to make). */
export async function makeTestCa(dir: string): Promise<TestCa> {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.crt'),
    '-days',
    '1',
    '-subj',
    '/CN=order-importer test CA',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    at('server.key'),
    '-out',
    at('server.csr'),
    '-subj',
    '/CN=localhost',
  );
  await writeFile(at('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.crt'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.crt'),
    '-days',
    '1',
    '-extfile',
    at('server.ext'),
  );
  return {
    caFile: at('ca.crt'),
    ca: await readFile(at('ca.crt')),
    certFile: at('server.crt'),
    keyFile: at('server.key'),
  };
}

/** A redis-server listening over TLS only (its plain port closed), with the CA's certificate. */
export async function startTlsRedis(
  ca: TestCa,
  conf: readonly string[] = [],
): Promise<RedisProcess> {
  const tlsPort = await freePort();
  return startRedisServer({
    port: 0,
    conf: [
      `tls-port ${tlsPort}`,
      `tls-cert-file ${ca.certFile}`,
      `tls-key-file ${ca.keyFile}`,
      `tls-ca-cert-file ${ca.caFile}`,
      // Clients show no certificate of their own: the server's is what is tested.
      'tls-auth-clients no',
      ...conf,
    ],
    tls: { port: tlsPort, options: { ca: ca.ca, servername: 'localhost' } },
  });
}
