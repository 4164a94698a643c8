/** Types for young-generation.mjs (plain JavaScript: start.mjs runs before any build). */
export declare const YOUNG_GENERATION_FLAG: string;
export declare function withYoungGeneration(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
