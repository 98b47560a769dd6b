/** Longest accepted values, in characters. */
export const customerLimits = { externalId: 255, name: 500, email: 320 } as const
