export const STANDALONE_DIR: string;
export const STANDALONE_SERVER: string;
export function hasStandaloneServer(root: string): boolean;
export function copyStandaloneAssets(root: string): void;
