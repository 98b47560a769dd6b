-- CreateTable
CREATE TABLE "RateLimitWindow" (
    "keyId" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateLimitWindow_pkey" PRIMARY KEY ("keyId","windowStart")
);

-- CreateIndex
CREATE INDEX "RateLimitWindow_windowStart_idx" ON "RateLimitWindow"("windowStart");
