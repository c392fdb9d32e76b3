-- CreateTable
CREATE TABLE "chain_checkpoint" (
    "chain_id" INTEGER NOT NULL,
    "last_processed_block" BIGINT NOT NULL,
    "last_processed_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "chain_checkpoint_pkey" PRIMARY KEY ("chain_id")
);
