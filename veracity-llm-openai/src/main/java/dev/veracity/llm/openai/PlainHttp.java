package dev.veracity.llm.openai;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS context of a client that speaks plain {@code http://} only. The JDK's {@link java.net.http.HttpClient} takes
 * {@link SSLContext#getDefault()} when given none, even for a client that never opens a TLS connection, and the default
 * context reads and parses the JDK's whole trust store (about 150 certificates) at the first client a process builds:
 * tens of milliseconds before a local model server's first call. This context has no keys and trusts no certificate,
 * so it costs nothing to make and, were such a client ever led to a TLS server, the handshake would fail rather than
 * trust anything; {@code https://} base URLs keep the default context.
 */
final class PlainHttp {

    private static final SSLContext NO_TLS = make();

    private PlainHttp() {
    }

    /** A TLS context that refuses every server (a plain-http client's, never used for a handshake). */
    static SSLContext noTls() {
        return NO_TLS;
    }

    private static SSLContext make() {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(new KeyManager[0], new TrustManager[] {new TrustsNothing()}, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the TLS context of a plain-http client: " + e.getMessage(), e);
        }
    }

    /** Trusts no certificate. */
    static final class TrustsNothing implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a plain-http client trusts no certificate");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a plain-http client trusts no certificate");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
