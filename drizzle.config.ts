import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/schema.ts', './server/db/schema-publisher.ts', './server/db/schema-lists.ts'],
  out: './server/db/migrations',
});
