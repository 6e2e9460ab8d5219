export declare const BENCH_ROUTES_VAR: string;
export declare const BUILD_MARK: string;
export declare const nextBin: string;
export declare function benchRoutes(env: Record<string, string | undefined>): boolean;
export declare function freshBuildTime(root: string, env: Record<string, string | undefined>): number | undefined;
export declare function buildIsStale(root: string, env: Record<string, string | undefined>): boolean;
