import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIST_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');

let cache: Set<string> | undefined;

function commonPasswords(): Set<string> {
  cache ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return cache;
}

/** True when the password is on the shipped list of most common passwords (no network look-up). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  'Esa contraseña es demasiado común y fácil de adivinar. Elige otra.';
