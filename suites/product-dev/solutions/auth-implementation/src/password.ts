import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

function scryptAsync(password: string, salt: Buffer, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, (error, key) => (error ? reject(error) : resolve(key)));
  });
}
const KEY_LENGTH = 64;

/** `scrypt$<salt hex>$<key hex>` with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('hex')}$${key.toString('hex')}`;
}

/** Constant-time check; a malformed or missing hash never matches. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, saltHex, keyHex] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !saltHex || !keyHex) {
    // Spend the same work as a real check so unknown accounts cannot be told apart by timing.
    await scryptAsync(password, randomBytes(16), KEY_LENGTH);
    return false;
  }
  const expected = Buffer.from(keyHex, 'hex');
  const actual = await scryptAsync(password, Buffer.from(saltHex, 'hex'), KEY_LENGTH);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
