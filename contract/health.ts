// GET /api/health: what a load balancer, a test harness or a curious operator needs to know.
import { z } from 'zod';

export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  uptime_s: z.number().nonnegative(),
});
export type Health = z.infer<typeof healthSchema>;
