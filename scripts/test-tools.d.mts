export declare const TEST_PACKAGES: { pkg: string; why: string; present: () => boolean }[];
export declare function installCommand(pkgs?: string[]): string;
export declare function ensureTestTools(log?: (line: string) => void): string[];
