// Imported first by every entry point. libuv's thread pool runs the password hashes; with more
// threads than cores, a burst of sign-ins time-slices every hash and stretches the slowest ones
// (sign-in p99 +50 % on two cores). One thread per core keeps them first come, first served.
// It must be set before the pool's first use, which creates it.
import os from 'node:os';

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, os.availableParallelism()));
