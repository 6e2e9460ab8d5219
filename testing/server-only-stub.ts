// Stands in for the `server-only` guard when Vitest imports server modules.
export {};
