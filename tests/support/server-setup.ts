// Before each server test file: the networks' answers this run shares (database-global-setup.ts).
import { inject } from 'vitest';

process.env.NETWORK_CACHE_DIR = inject('networkCacheDir');
