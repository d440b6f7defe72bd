//! `--tls-cert` / `--tls-key`: TLS built in (rustls), so a lab host needs no reverse
//! proxy to keep tool calls, results and the bearer token off the wire in clear.
use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::ListenError;

/// A server config from a PEM certificate chain and a PEM private key (PKCS#8, PKCS#1
/// or SEC1), with the ring provider.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, ListenError> {
    let tls = |reason: String| ListenError::Tls(reason);
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<_, _>>())
        .map_err(|e| {
            tls(format!(
                "cannot read certificates from {}: {e}",
                cert.display()
            ))
        })?;
    if chain.is_empty() {
        return Err(tls(format!("{} holds no PEM certificate", cert.display())));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        tls(format!(
            "cannot read a private key from {}: {e}",
            key.display()
        ))
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| tls(format!("certificate and key do not go together: {e}")))?;
    Ok(Arc::new(config))
}
