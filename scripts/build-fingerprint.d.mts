/** Types for build-fingerprint.mjs (plain JavaScript so `npm start` needs no compiler before the build). */
export declare const projectRoot: string;
export declare function fingerprintPathOf(root?: string): string;
export declare function sourceFingerprint(root?: string): string | undefined;
export declare function staleReason(fingerprint: string | undefined, root?: string): string | undefined;
export declare function recordFingerprint(fingerprint: string | undefined, root?: string): void;
export declare function buildAndRecord(): number;
