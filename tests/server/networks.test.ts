// The studio's networks run on a thread of their own (networks.ts): while the segmentation
// computes, the thread that asked — the server's, in the embedded default — goes on answering;
// a model onnxruntime cannot read is refused without taking the thread down; a stop lets the run
// under way finish; a thread that stopped is started again, with its sessions, on the next run;
// and the segmentation that keeps its memory answers as the one that gives it back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { detect } from '../../server/studio/detector';
import { decodeOutputs, encodeOutputs } from '../../server/studio/network-answers';
import { NetworkFailed, openNetwork, runNetwork, stopNetworks, type Network } from '../../server/studio/networks';
import { loadModel, SALIENCY, salience } from '../../server/studio/saliency';
import { phoneShoePhoto } from '../fixtures/phone-shoes';

// This file is about the runs themselves: none is answered from the suite's kept answers.
delete process.env.NETWORK_CACHE_DIR;
// The sessions opened here (two more of the segmentation's among them) are not left on the thread
// for the files the same worker runs next (vitest.config.ts: the server's modules are kept).
afterAll(() => stopNetworks());

const upright = async (jpeg: Buffer) => {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** What the detector finds on a drawn shoe photo. */
const detected = async (seed: number) => {
  const photo = await upright((await phoneShoePhoto({ seed })).jpeg);
  return detect(photo.data, photo.width, photo.height);
};

describe('the networks’ thread', () => {
  it('leaves the asking thread free while the segmentation computes: its longest stall is a small part of the run', async () => {
    await loadModel();
    const photo = await upright((await phoneShoePhoto({ seed: 907 })).jpeg);
    // The longest time between two turns of a 5 ms timer, while the segmentation runs.
    let last = performance.now();
    let stall = 0;
    const ticking = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const answer = await salience(photo.data, photo.width, photo.height);
    const took = performance.now() - started;
    clearInterval(ticking);
    // A run that held the thread until it answered leaves its stall after the last turn.
    stall = Math.max(stall, performance.now() - last);
    expect(answer.map).toHaveLength(1024 * 1024);
    expect(answer.map.reduce((most, value) => Math.max(most, value), 0)).toBeGreaterThan(0.9);
    // On the asking thread the run itself would be one stall as long as the whole call.
    expect(stall).toBeLessThan(took / 3);
  });

  it('refuses a model onnxruntime cannot read, by onnxruntime’s own words, and keeps running the others', async () => {
    const before = await detected(911);
    const broken = { name: 'broken', make: async () => ({ model: new Uint8Array([8, 1, 2, 3]), options: {} }) };
    await expect(openNetwork(broken)).rejects.toBeInstanceOf(NetworkFailed);
    await expect(openNetwork(broken)).rejects.toThrow(/protobuf|parse|model/i);
    expect(await detected(911)).toEqual(before);
  });

  it('starts again after the thread stopped, and answers as before', async () => {
    const before = await detected(913);
    expect(before.length).toBeGreaterThan(0);
    await stopNetworks();
    expect(await detected(913)).toEqual(before);
  });

  it('lets a run under way finish when stopped, rather than cutting the thread off inside onnxruntime', async () => {
    await loadModel();
    const photo = await upright((await phoneShoePhoto({ seed: 917 })).jpeg);
    const running = salience(photo.data, photo.width, photo.height);
    // The photo is made ready and handed to the thread within this; its run takes seconds more.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // However long the run takes on a busy machine.
    await stopNetworks({ waitMs: 600_000 });
    const answer = await running;
    expect(answer.map).toHaveLength(1024 * 1024);
    expect(answer.map.reduce((most, value) => Math.max(most, value), 0)).toBeGreaterThan(0.9);
  });

  it('keeps answers on disk only where NETWORK_CACHE_DIR names a place, and gives each back as the network gave it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solestudio-network-answers-'));
    try {
      const before = await detected(919);
      expect(before.length).toBeGreaterThan(0);
      expect(fs.readdirSync(dir)).toHaveLength(0);
      process.env.NETWORK_CACHE_DIR = dir;
      expect(await detected(919)).toEqual(before);
      const [file] = fs.readdirSync(dir);
      expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/^detector-[0-9a-f]{64}\.bin$/)]);
      expect(await detected(919)).toEqual(before);
      expect(fs.readdirSync(dir)).toHaveLength(1);
      // The same input is answered from the file: a kept answer with every score silenced finds nothing.
      const kept = decodeOutputs(fs.readFileSync(path.join(dir, file!)));
      for (const output of Object.values(kept)) if (output.dims.length === 3 && output.dims[2]! > 4) output.data.fill(-20);
      fs.writeFileSync(path.join(dir, file!), encodeOutputs(kept));
      expect(await detected(919)).toEqual([]);
      // Another photo is another answer.
      expect((await detected(921)).length).toBeGreaterThan(0);
      expect(fs.readdirSync(dir)).toHaveLength(2);
    } finally {
      delete process.env.NETWORK_CACHE_DIR;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the segmentation’s memory between runs only where NETWORK_MEMORY_KEPT says so, and answers the same to the bit', async () => {
    const setting = process.env.NETWORK_MEMORY_KEPT;
    /** The segmentation's own model and options, made as the setting says. */
    const made = async (kept: string | undefined, name: string): Promise<Network> => {
      if (kept === undefined) delete process.env.NETWORK_MEMORY_KEPT;
      else process.env.NETWORK_MEMORY_KEPT = kept;
      try {
        const { model, options } = await SALIENCY.make();
        return { name, make: async () => ({ model, options }) };
      } finally {
        if (setting === undefined) delete process.env.NETWORK_MEMORY_KEPT;
        else process.env.NETWORK_MEMORY_KEPT = setting;
      }
    };
    const released = await made(undefined, 'saliency-released');
    const kept = await made('true', 'saliency-kept');
    expect((await released.make()).options.enableCpuMemArena).toBe(false);
    expect((await kept.make()).options.enableCpuMemArena).toBe(true);
    await expect(made('sometimes', 'saliency-unread')).rejects.toThrow();

    // A shoe photo as the network takes it, the same for both.
    const square = await sharp((await phoneShoePhoto({ seed: 923 })).jpeg).resize(1024, 1024, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const input = () => {
      const plane = 1024 * 1024;
      const data = new Float32Array(3 * plane);
      for (let i = 0; i < plane; i += 1) for (let c = 0; c < 3; c += 1) data[c * plane + i] = (square[i * 3 + c]! - 128) / 256;
      return { input: { data, dims: [1, 3, 1024, 1024] } };
    };
    const bits = async (network: Network) => Buffer.from((await runNetwork(network, input(), ['output'])).output!.data.buffer);
    const first = await bits(released);
    expect(first.length).toBe(1024 * 1024 * 4);
    // Twice with the memory kept: the second run is the one that reuses it.
    expect((await bits(kept)).equals(first)).toBe(true);
    expect((await bits(kept)).equals(first)).toBe(true);
  }, 120_000);
});
