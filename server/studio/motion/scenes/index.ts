// The ten themed videos the studio engine makes, by scene name.
import type { CreativeScene } from '../../../../contract/enums';
import type { Scene } from '../stage';
import { barbie } from './barbie';
import { crystal } from './crystal';
import { fisheyeJump } from './fisheye-jump';
import { fruitScene } from './fruit';
import { giant } from './giant';
import { liquidMetal } from './liquid-metal';
import { mountain } from './mountain';
import { phantom } from './phantom';
import { plant } from './plant';
import { sand } from './sand';

export type ThemedScene = Exclude<CreativeScene, 'CUSTOM'>;

export const THEMED_SCENES: Record<ThemedScene, Scene> = {
  SHOE_GIANT: giant,
  SHOE_CRYSTAL: crystal,
  SHOE_LIQUID_METAL: liquidMetal,
  SHOE_PLANT: plant,
  SHOE_SAND: sand,
  SHOE_FISHEYE_JUMP: fisheyeJump,
  SHOE_PHANTOM: phantom,
  SHOE_FRUIT: fruitScene,
  SHOE_BARBIE: barbie,
  SHOE_MOUNTAIN: mountain,
};
