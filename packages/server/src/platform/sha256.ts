import { hash } from 'node:crypto';

/** SHA-256 of UTF-8 text as lowercase hex: the one digest behind stored hashes and lock keys. */
export const sha256Hex = (value: string) => hash('sha256', value, 'hex');
