// The one light of a scene. Directions are in the camera's frame: x to the right of the picture,
// y up the picture, z out of the picture towards the viewer. For a shot across a studio floor y is
// up from the floor; for a flat-lay seen from above z is up from the table.
export type Vec3 = [number, number, number];

export interface Light {
  /** Unit vector from a lit point towards the light. */
  direction: Vec3;
  /** Share of light that comes from everywhere (the room, bounce cards), 0–1. */
  ambient: number;
  /** Strength of the soft specular highlight (a large softbox), 0–1. */
  specular: number;
}

export const normalise = ([x, y, z]: Vec3): Vec3 => {
  const n = Math.hypot(x, y, z) || 1;
  return [x / n, y / n, z / n];
};

/** A key light high on the left, a little in front: a studio shot across the floor. */
export const STUDIO_KEY: Light = { direction: normalise([-0.55, 0.7, 0.45]), ambient: 0.32, specular: 0.35 };

/** Window light from the top left, high over a table: a flat-lay seen from above. */
export const TABLE_KEY: Light = { direction: normalise([-0.42, 0.38, 0.82]), ambient: 0.3, specular: 0.25 };

/**
 * Light reflected towards the camera by a surface with normal `n`: ambient plus Lambert, plus a
 * broad Blinn-Phong highlight (the camera looks along −z). 1 is a surface facing the light.
 */
export function irradiance(n: Vec3, light: Light, shininess = 24): { diffuse: number; specular: number } {
  const [lx, ly, lz] = light.direction;
  const lambert = Math.max(0, n[0] * lx + n[1] * ly + n[2] * lz);
  // Half-vector between the light and the viewer (0, 0, 1).
  const hn = Math.hypot(lx, ly, lz + 1) || 1;
  const nh = Math.max(0, (n[0] * lx + n[1] * ly + n[2] * (lz + 1)) / hn);
  return {
    diffuse: light.ambient + (1 - light.ambient) * lambert,
    specular: lambert > 0 ? light.specular * nh ** shininess : 0,
  };
}

/**
 * Where a point `height` px above the ground throws its shadow, relative to its foot, on a
 * picture of the ground: (dx, dy) in picture pixels. `depth` is how much a step away from the
 * camera shortens on the picture (1 seen from above, small across a floor).
 */
export function shadowOffset(light: Light, height: number, view: 'floor' | 'table', depth = 1): [number, number] {
  const [lx, ly, lz] = light.direction;
  if (view === 'table') {
    // Up is z; the shadow goes away from the light across the picture.
    const up = Math.max(0.2, lz);
    return [(-lx / up) * height, (ly / up) * height * depth];
  }
  // Up is y; the shadow goes away from the light: sideways, and away from the camera (up the picture).
  const up = Math.max(0.2, ly);
  return [(-lx / up) * height, (lz / up) * height * depth * -1];
}
