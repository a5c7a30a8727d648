// Package sealed encrypts small messages a server hands to a client and
// takes back later (the requestState of multi round-trip requests): AES-256-GCM
// under a key derived from the server's secret for one purpose, so that what
// the client holds reveals nothing and any change to it is detected.
package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// version is the first byte of every sealed message: a later format (or
// algorithm) gets another, and old messages are refused, not misread.
const version = 1

// Box seals and opens messages for one purpose. Safe for concurrent use.
type Box struct {
	aead    cipher.AEAD
	purpose []byte // additional data: a message sealed for another purpose does not open
}

// New returns a Box whose key is derived from secret with HKDF-SHA256 for
// purpose, so that the same secret may serve other purposes (signing,
// another box) without any two sharing a key.
func New(secret []byte, purpose string) (*Box, error) {
	key, err := hkdf.Key(sha256.New, secret, nil, "mcpgen sealed v1: "+purpose, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead, purpose: []byte(purpose)}, nil
}

// Seal encrypts plaintext under a fresh random nonce and returns it as
// base64url text: version, nonce, ciphertext and tag. Random 96-bit nonces
// keep the GCM bound (2^32 messages under one key) far away for a key that
// seals a few states per request.
func (b *Box) Seal(plaintext []byte) string {
	n := b.aead.NonceSize()
	out := make([]byte, 1+n, 1+n+len(plaintext)+b.aead.Overhead())
	out[0] = version
	_, _ = rand.Read(out[1:]) // never fails (crypto/rand panics rather)
	out = b.aead.Seal(out, out[1:1+n], plaintext, b.purpose)
	return base64.RawURLEncoding.EncodeToString(out)
}

// ErrOpen is the one error of Open: the message is not one this Box sealed,
// or it was altered. Why exactly is not said (nor known: GCM only says the
// tag does not match).
var ErrOpen = errors.New("not sealed by this server, or altered")

// Open decrypts a message of Seal.
func (b *Box) Open(sealed string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(sealed)
	n := b.aead.NonceSize()
	if err != nil || len(raw) < 1+n+b.aead.Overhead() || raw[0] != version {
		return nil, ErrOpen
	}
	plain, err := b.aead.Open(nil, raw[1:1+n], raw[1+n:], b.purpose)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}
