-- CreateTable
CREATE TABLE "PixWorkAttempt" (
    "job" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "attemptedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixWorkAttempt_pkey" PRIMARY KEY ("job","subject")
);
