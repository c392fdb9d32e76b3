-- AlterTable
ALTER TABLE "chain_checkpoint" ADD COLUMN     "last_processed_time" BIGINT;

-- CreateTable
CREATE TABLE "block" (
    "chain_id" INTEGER NOT NULL,
    "number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "parent_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    CONSTRAINT "block_pkey" PRIMARY KEY ("chain_id","number")
);

-- CreateTable
CREATE TABLE "token" (
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "total_supply" DECIMAL(78,0),
    "is_erc20_verified" BOOLEAN NOT NULL,
    "verification_error" TEXT,
    "source" TEXT NOT NULL,
    "first_seen_block" BIGINT NOT NULL,
    "total_transfers" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "token_pkey" PRIMARY KEY ("chain_id","address")
);

-- CreateTable
CREATE TABLE "token_transfer" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "value" DECIMAL(78,0) NOT NULL,
    "timestamp" BIGINT NOT NULL,
    CONSTRAINT "token_transfer_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "token_transfer_hour" (
    "chain_id" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "hour" BIGINT NOT NULL,
    "transfers" INTEGER NOT NULL,
    CONSTRAINT "token_transfer_hour_pkey" PRIMARY KEY ("chain_id","token","hour")
);

-- CreateTable
CREATE TABLE "pool" (
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "router_index" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "discovered_by" TEXT,
    "token0" TEXT NOT NULL,
    "token1" TEXT NOT NULL,
    "stable" BOOLEAN NOT NULL DEFAULT false,
    "fee_bps" INTEGER,
    "created_block" BIGINT NOT NULL,
    "reserve0" DECIMAL(78,0),
    "reserve1" DECIMAL(78,0),
    "reserves_block" BIGINT,
    "total_swaps" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "pool_pkey" PRIMARY KEY ("chain_id","address")
);

-- CreateTable
CREATE TABLE "amm_swap" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "pool" TEXT NOT NULL,
    "user" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "token_in" TEXT NOT NULL,
    "token_out" TEXT NOT NULL,
    "amount_in" DECIMAL(78,0) NOT NULL,
    "amount_out" DECIMAL(78,0) NOT NULL,
    "fee" DECIMAL(78,0) NOT NULL,
    "ref_code" TEXT,
    "ref_fee" DECIMAL(78,0),
    CONSTRAINT "amm_swap_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "pool_swap_hour" (
    "chain_id" INTEGER NOT NULL,
    "pool" TEXT NOT NULL,
    "hour" BIGINT NOT NULL,
    "swaps" INTEGER NOT NULL,
    "volume0" DECIMAL(78,0) NOT NULL,
    "volume1" DECIMAL(78,0) NOT NULL,
    "fees0" DECIMAL(78,0) NOT NULL,
    "fees1" DECIMAL(78,0) NOT NULL,
    CONSTRAINT "pool_swap_hour_pkey" PRIMARY KEY ("chain_id","pool","hour")
);

-- CreateTable
CREATE TABLE "referral_accrual" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "pool" TEXT NOT NULL,
    "ref_code" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    CONSTRAINT "referral_accrual_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "referral_claim" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "pool" TEXT NOT NULL,
    "ref_code" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "amount0" DECIMAL(78,0) NOT NULL,
    "amount1" DECIMAL(78,0) NOT NULL,
    "kind" TEXT NOT NULL,
    CONSTRAINT "referral_claim_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "launchpad_token" (
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "launchpad" TEXT NOT NULL,
    "creator" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "image_uri" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "website" TEXT NOT NULL,
    "twitter" TEXT NOT NULL,
    "telegram" TEXT NOT NULL,
    "discord" TEXT NOT NULL,
    "creation_timestamp" BIGINT NOT NULL,
    "starting_liquidity" DECIMAL(78,0) NOT NULL,
    "initial_purchase_amount" DECIMAL(78,0) NOT NULL,
    "initial_hype_reserves" DECIMAL(78,0) NOT NULL,
    "initial_token_reserves" DECIMAL(78,0) NOT NULL,
    "initial_price" DECIMAL(78,0) NOT NULL,
    "hype_reserves" DECIMAL(78,0) NOT NULL,
    "token_reserves" DECIMAL(78,0) NOT NULL,
    "total_supply" DECIMAL(78,0) NOT NULL,
    "price" DECIMAL(78,0) NOT NULL,
    "trades" INTEGER NOT NULL DEFAULT 0,
    "created_block" BIGINT NOT NULL,
    "created_tx_hash" TEXT NOT NULL,
    CONSTRAINT "launchpad_token_pkey" PRIMARY KEY ("chain_id","address")
);

-- CreateTable
CREATE TABLE "launchpad_trade" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "token" TEXT NOT NULL,
    "trader" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "native_amount" DECIMAL(78,0) NOT NULL,
    "token_amount" DECIMAL(78,0) NOT NULL,
    "price" DECIMAL(78,0) NOT NULL,
    "hype_reserves" DECIMAL(78,0) NOT NULL,
    "token_reserves" DECIMAL(78,0) NOT NULL,
    "total_supply" DECIMAL(78,0) NOT NULL,
    CONSTRAINT "launchpad_trade_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "launchpad_metadata" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "image_uri" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "website" TEXT NOT NULL,
    "twitter" TEXT NOT NULL,
    "telegram" TEXT NOT NULL,
    "discord" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    CONSTRAINT "launchpad_metadata_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "chain_event_outbox" (
    "id" BIGSERIAL NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "subject" TEXT NOT NULL,
    "msg_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    CONSTRAINT "chain_event_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "token_transfer_chain_id_token_timestamp_idx" ON "token_transfer"("chain_id", "token", "timestamp");

-- CreateIndex
CREATE INDEX "token_transfer_chain_id_timestamp_idx" ON "token_transfer"("chain_id", "timestamp");

-- CreateIndex
CREATE INDEX "pool_chain_id_token0_idx" ON "pool"("chain_id", "token0");

-- CreateIndex
CREATE INDEX "pool_chain_id_token1_idx" ON "pool"("chain_id", "token1");

-- CreateIndex
CREATE INDEX "amm_swap_chain_id_pool_timestamp_idx" ON "amm_swap"("chain_id", "pool", "timestamp");

-- CreateIndex
CREATE INDEX "amm_swap_chain_id_timestamp_idx" ON "amm_swap"("chain_id", "timestamp");

-- CreateIndex
CREATE INDEX "referral_accrual_chain_id_ref_code_idx" ON "referral_accrual"("chain_id", "ref_code");

-- CreateIndex
CREATE INDEX "referral_claim_chain_id_ref_code_idx" ON "referral_claim"("chain_id", "ref_code");

-- CreateIndex
CREATE INDEX "launchpad_token_chain_id_created_block_idx" ON "launchpad_token"("chain_id", "created_block");

-- CreateIndex
CREATE INDEX "launchpad_trade_chain_id_token_block_number_idx" ON "launchpad_trade"("chain_id", "token", "block_number");

-- CreateIndex
CREATE INDEX "launchpad_metadata_chain_id_token_block_number_idx" ON "launchpad_metadata"("chain_id", "token", "block_number");

-- CreateIndex
CREATE INDEX "chain_event_outbox_chain_id_block_number_idx" ON "chain_event_outbox"("chain_id", "block_number");
