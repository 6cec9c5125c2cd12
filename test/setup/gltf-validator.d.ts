/** The part of Khronos's gltf-validator (a Dart-compiled package without types) the tests use. */
declare module 'gltf-validator' {
  interface ValidationMessage {
    code: string;
    message: string;
    severity: number;
    pointer?: string;
  }
  interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidationMessage[] };
  }
  const validator: {
    validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidationReport>;
    version(): string;
  };
  export default validator;
}
