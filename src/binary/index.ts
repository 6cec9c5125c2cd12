export { BinaryReader } from './reader.js';
export { BinaryWriter } from './writer.js';
export { FormatError, isFormatError } from './format-error.js';
export { crc32 } from './crc32.js';
export { fnv1a64Hex, Fnv1a64 } from './fnv.js';
