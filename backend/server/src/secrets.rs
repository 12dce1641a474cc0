//! Secrets: random tokens (256 bits, stored only as SHA-256), argon2id password hashes and
//! constant-time comparison.

use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A new random token: `prefix` followed by 64 hex characters (256 random bits).
pub fn random_token(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    format!("{prefix}{}", hex::encode(bytes))
}

/// The SHA-256 of a token, in hex: what the database keeps.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The part of a token shown in lists so that a user recognises it.
pub fn token_prefix(token: &str) -> String {
    token.chars().take(12).collect()
}

/// Constant-time equality of two secrets.
pub fn ct_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// An argon2id hash (PHC string) of a password.
pub fn hash_password(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .expect("argon2id with default parameters cannot fail")
        .to_string()
}

/// Checks a password against an argon2id PHC string (constant time inside argon2).
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_stable() {
        let a = random_token("dss_");
        let b = random_token("dss_");
        assert_ne!(a, b);
        assert_eq!(a.len(), 4 + 64);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), hash_token(&b));
        assert!(ct_eq(&a, &a.clone()));
        assert!(!ct_eq(&a, &b));
    }

    #[test]
    fn passwords_verify() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong", &h));
        assert!(!verify_password("x", "not a hash"));
    }
}
