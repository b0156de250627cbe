// One way to build the S3 client, for the storage engine and the tus store alike.
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.ts'

/**
 * The client settings for a configured bucket. Checksums only where a request requires one:
 * the SDK's default (aws-chunked bodies with a CRC trailer) is refused with 411 by several
 * S3-compatible stores (Ceph RGW among them), and AWS accepts both.
 */
export function s3ClientConfig(s3: S3Config): S3ClientConfig {
  return {
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }
}

export const s3Client = (s3: S3Config) => new S3Client(s3ClientConfig(s3))
