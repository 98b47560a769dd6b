import { secp256k1 } from '@noble/curves/secp256k1.js'
import { HDKey } from '@scure/bip32'
import { getAddress, keccak256, type Address } from 'viem'

/** Parses a BIP32 extended public key; undefined when it is not one (or is a private key). */
export function parseXpub(xpub: string): HDKey | undefined {
  if (xpub.length > 200) return undefined
  try {
    const key = HDKey.fromExtendedKey(xpub)
    if (key.privateKey || !key.publicKey) return undefined
    return key
  } catch {
    return undefined
  }
}

/** The EVM address of child 0/index of the extended public key (non-hardened, so no private key is needed). */
export function deriveDepositAddress(xpub: string, index: number): Address {
  const root = parseXpub(xpub)
  if (!root) throw new Error('not an extended public key')
  const child = root.deriveChild(0).deriveChild(index)
  const uncompressed = uncompress(child.publicKey!)
  return getAddress(`0x${keccak256(uncompressed.subarray(1)).slice(-40)}`)
}

function uncompress(publicKey: Uint8Array): Uint8Array {
  // HDKey holds the compressed point; the address hashes the 64-byte uncompressed one.
  return secp256k1.Point.fromHex(Buffer.from(publicKey).toString('hex')).toBytes(false)
}
