// The editor's four tools (SPEC §2 Image editor), in the order the tabs show them.
export const TOOLS = ['text', 'colour', 'logo', 'crop'] as const;
export type Tool = (typeof TOOLS)[number];
