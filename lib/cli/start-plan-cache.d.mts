export declare function cachedPlan<T>(root: string, env: Record<string, string | undefined>, args: string[], buildTime: number | undefined): T | undefined;
export declare function keepPlan(root: string, names: string[], env: Record<string, string | undefined>, args: string[], buildTime: number, plan: unknown): void;
export declare function samePlan(a: unknown, b: unknown): boolean;
