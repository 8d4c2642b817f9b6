import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';

export interface TlsMaterial {
  caCert: string;
  cert: string;
  key: string;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** RSA keys come from node:crypto (native, fast); node-forge only builds and signs the certificates. */
function newKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    pem,
    privateKey: forge.pki.privateKeyFromPem(pem),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function newCertificate(publicKey: forge.pki.PublicKey, subjectCn: string): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + TEN_YEARS_MS);
  cert.setSubject([{ name: 'commonName', value: subjectCn }]);
  return cert;
}

/** The names and addresses every serving certificate covers. */
export const DEFAULT_SANS = ['localhost', '127.0.0.1', '::1'];

const isIp = (s: string) => isIP(s) !== 0;

interface Ca {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  keyPem: string;
}

function newCa(): Ca {
  const ca = newKeyPair();
  const cert = newCertificate(ca.publicKey, 'oam-local-ca');
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(ca.privateKey, forge.md.sha256.create());
  return { cert, key: ca.privateKey, keyPem: ca.pem };
}

function servingCert(ca: Ca, sans: string[]): { cert: string; key: string } {
  const server = newKeyPair();
  const cert = newCertificate(server.publicKey, 'oam-local-apiserver');
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: uniqueSans(sans).map((san) => (isIp(san) ? { type: 7, ip: san } : { type: 2, value: san })),
    },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: server.pem };
}

function uniqueSans(extra: string[]): string[] {
  return [...new Set([...DEFAULT_SANS, ...extra.filter(Boolean)])];
}

/** The DNS names and IP addresses a PEM certificate's subjectAltName lists. */
export function certificateSans(pem: string): string[] {
  const cert = forge.pki.certificateFromPem(pem);
  const ext = cert.getExtension('subjectAltName') as {
    altNames?: { type: number; value?: string; ip?: string }[];
  };
  return (ext?.altNames ?? []).map((n) => (n.type === 7 ? (n.ip ?? '') : (n.value ?? '')));
}

/** A fresh CA and a serving certificate for localhost, 127.0.0.1, ::1 and `sans`. */
export function generateTls(sans: string[] = []): TlsMaterial & { caKey: string } {
  const ca = newCa();
  return { caCert: forge.pki.certificateToPem(ca.cert), caKey: ca.keyPem, ...servingCert(ca, sans) };
}

/**
 * The names and addresses a server listening on `host` is reached by: the host itself, or for
 * the unspecified address (0.0.0.0, ::) every address of this machine and its hostname.
 */
export function servingSans(host: string | undefined): string[] {
  if (!host) return [];
  if (host !== '0.0.0.0' && host !== '::') return [host];
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && (host === '::' || a.family === 'IPv4'))
    .map((a) => (a as { address: string }).address.split('%')[0]);
  return [hostname(), ...addresses];
}

/**
 * Loads the CA and serving certificate from the state dir, generating them at first start; the
 * serving certificate is issued again (by the same CA, when its key was kept) when it does not
 * cover every name in `sans`.
 */
export function loadOrCreateTls(stateDir: string, sans: string[] = []): TlsMaterial {
  const files = {
    caCert: join(stateDir, 'ca.crt'),
    caKey: join(stateDir, 'ca.key'),
    cert: join(stateDir, 'apiserver.crt'),
    key: join(stateDir, 'apiserver.key'),
  };
  const wanted = uniqueSans(sans);
  if ([files.caCert, files.cert, files.key].every((f) => existsSync(f))) {
    const existing = {
      caCert: readFileSync(files.caCert, 'utf8'),
      cert: readFileSync(files.cert, 'utf8'),
      key: readFileSync(files.key, 'utf8'),
    };
    const covered = new Set(certificateSans(existing.cert));
    if (wanted.every((san) => covered.has(san))) return existing;
    if (existsSync(files.caKey)) {
      const keyPem = readFileSync(files.caKey, 'utf8');
      const ca: Ca = {
        cert: forge.pki.certificateFromPem(existing.caCert),
        key: forge.pki.privateKeyFromPem(keyPem),
        keyPem,
      };
      const serving = servingCert(ca, wanted);
      writeFileSync(files.cert, serving.cert, { mode: 0o644 });
      writeFileSync(files.key, serving.key, { mode: 0o600 });
      return { caCert: existing.caCert, ...serving };
    }
  }
  const tls = generateTls(wanted);
  writeFileSync(files.caCert, tls.caCert, { mode: 0o644 });
  writeFileSync(files.caKey, tls.caKey, { mode: 0o600 });
  writeFileSync(files.cert, tls.cert, { mode: 0o644 });
  writeFileSync(files.key, tls.key, { mode: 0o600 });
  return { caCert: tls.caCert, cert: tls.cert, key: tls.key };
}
