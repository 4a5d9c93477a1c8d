//! The service's client as the commands use it: a channel to `--server`
//! (TLS when the URL is https, trusting `--ca`), every call carrying the
//! `--token`. `--server` may list several instances sharing one record,
//! comma-separated: the first that answers is used.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use referee_proto::referee_client::RefereeClient;
use tonic::metadata::MetadataValue;
use tonic::service::Interceptor;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

/// Where the service is and who is calling.
#[derive(Debug, Clone, clap::Args)]
pub struct Server {
    /// The service's URL, for example http://127.0.0.1:50051; several
    /// instances of one record comma-separated.
    #[arg(long = "server")]
    pub url: String,
    /// The caller's token (`--auth` of `referee serve`).
    #[arg(long)]
    pub token: Option<String>,
    /// A PEM certificate to trust, for a service with a self-signed one.
    #[arg(long)]
    pub ca: Option<PathBuf>,
}

/// Adds `authorization: Bearer TOKEN` to every call.
#[derive(Debug, Clone)]
pub struct Bearer(Option<MetadataValue<tonic::metadata::Ascii>>);

impl Interceptor for Bearer {
    fn call(
        &mut self,
        mut request: tonic::Request<()>,
    ) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(token) = &self.0 {
            request
                .metadata_mut()
                .insert("authorization", token.clone());
        }
        Ok(request)
    }
}

pub type Client = RefereeClient<InterceptedService<Channel, Bearer>>;

impl Server {
    /// The instances `--server` lists, in order.
    pub fn urls(&self) -> Vec<&str> {
        self.url
            .split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .collect()
    }

    /// Connects to the first instance listed that answers.
    pub async fn connect(&self) -> Result<Client> {
        let urls = self.urls();
        let mut last = None;
        for at in 0..urls.len() {
            match self.connect_to(at).await {
                Ok(client) => return Ok(client),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| anyhow::anyhow!("--server names no URL")))
    }

    /// Connects once to the instance listed `at` (counted round the list).
    pub async fn connect_to(&self, at: usize) -> Result<Client> {
        let urls = self.urls();
        let Some(&url) = urls.get(at % urls.len().max(1)) else {
            bail!("--server names no URL");
        };
        let mut endpoint = Endpoint::from_shared(url.to_string())
            .with_context(|| format!("--server {url}: not a URL"))?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true);
        if url.starts_with("https") {
            let mut tls = ClientTlsConfig::new();
            match &self.ca {
                Some(path) => {
                    let pem =
                        std::fs::read(path).with_context(|| format!("--ca {}", path.display()))?;
                    tls = tls.ca_certificate(Certificate::from_pem(pem));
                }
                None => bail!("--server {url} is https: give the certificate to trust with --ca"),
            }
            endpoint = endpoint.tls_config(tls)?;
        }
        let channel = endpoint
            .connect()
            .await
            .with_context(|| format!("cannot reach the service at {url}"))?;
        let bearer = match &self.token {
            Some(token) => Some(
                format!("Bearer {token}")
                    .parse()
                    .context("--token: only visible ASCII")?,
            ),
            None => None,
        };
        Ok(RefereeClient::with_interceptor(channel, Bearer(bearer))
            .max_decoding_message_size(referee_server::MAX_MESSAGE)
            .max_encoding_message_size(referee_server::MAX_MESSAGE))
    }
}

/// A tokio runtime for one command.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}
