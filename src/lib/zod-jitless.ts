// zod compiles faster parsers with `new Function` unless told not to, and probes whether it may
// while each object schema is built, at module load. The Content-Security-Policy forbids eval,
// and the browser reports even the caught probe as a violation. zod reads its configuration from
// this global when it loads, so setting it here, first in the entry, covers every chunk that
// builds a schema, without loading zod on the landing page.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
