// Types for freshness.mjs (plain JavaScript: bin/ and scripts/ run before any build).
export declare const root: string;
export declare function cliStale(): boolean;
export declare function screensStale(): boolean;
export declare function appStale(): boolean;
