-- The launchpad's native-coin columns say "native": the coin is HYPE on chain 999 and ETH on chain 4663.
ALTER TABLE "launchpad_token" RENAME COLUMN "initial_hype_reserves" TO "initial_native_reserves";
ALTER TABLE "launchpad_token" RENAME COLUMN "hype_reserves" TO "native_reserves";
ALTER TABLE "launchpad_token" RENAME COLUMN "graduation_hype_amount" TO "graduation_native_amount";
ALTER TABLE "launchpad_trade" RENAME COLUMN "hype_reserves" TO "native_reserves";
