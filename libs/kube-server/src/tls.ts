import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

export function generateTls(): TlsMaterial {
  const ca = newKeyPair();
  const caCert = newCertificate(ca.publicKey, 'oam-local-ca');
  caCert.setIssuer(caCert.subject.attributes);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const server = newKeyPair();
  const cert = newCertificate(server.publicKey, 'oam-local-apiserver');
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
  ]);
  cert.sign(ca.privateKey, forge.md.sha256.create());
  return {
    caCert: forge.pki.certificateToPem(caCert),
    cert: forge.pki.certificateToPem(cert),
    key: server.pem,
  };
}

/** Loads the CA and serving certificate from the state dir, generating them at first start. */
export function loadOrCreateTls(stateDir: string): TlsMaterial {
  const files = {
    caCert: join(stateDir, 'ca.crt'),
    cert: join(stateDir, 'apiserver.crt'),
    key: join(stateDir, 'apiserver.key'),
  };
  if (Object.values(files).every((f) => existsSync(f))) {
    return {
      caCert: readFileSync(files.caCert, 'utf8'),
      cert: readFileSync(files.cert, 'utf8'),
      key: readFileSync(files.key, 'utf8'),
    };
  }
  const tls = generateTls();
  writeFileSync(files.caCert, tls.caCert, { mode: 0o644 });
  writeFileSync(files.cert, tls.cert, { mode: 0o644 });
  writeFileSync(files.key, tls.key, { mode: 0o600 });
  return tls;
}
