-- AlterTable
ALTER TABLE "launchpad_token" ADD COLUMN     "graduated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "graduated_block" BIGINT,
ADD COLUMN     "graduated_time" BIGINT,
ADD COLUMN     "graduated_log_index" INTEGER,
ADD COLUMN     "graduated_tx_hash" TEXT,
ADD COLUMN     "pair" TEXT,
ADD COLUMN     "graduation_hype_amount" DECIMAL(78,0),
ADD COLUMN     "graduation_token_amount" DECIMAL(78,0),
ADD COLUMN     "graduation_liquidity" DECIMAL(78,0);

-- CreateIndex
CREATE INDEX "launchpad_token_chain_id_graduated_block_idx" ON "launchpad_token"("chain_id", "graduated_block");
