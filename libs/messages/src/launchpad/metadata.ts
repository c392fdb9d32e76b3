import { z } from 'zod';

/** A launch's updatable metadata, as the launchpad's events name it (TokenCreated, TokenMetadataUpdated). */
export const launchMetadataShape = {
  image_uri: z.string(),
  description: z.string(),
  website: z.string(),
  twitter: z.string(),
  telegram: z.string(),
  discord: z.string(),
};
