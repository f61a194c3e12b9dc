package dev.capstan.source.oci.testing;

import dev.capstan.testing.TestPki;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A Sigstore instance made by a test, with nothing on the network: a certificate authority (as
 * Fulcio), a transparency log's key (as Rekor's) and a certificate-transparency log's key, their
 * {@code trusted_root.json}, and keyless signatures of manifest digests made as {@code cosign sign}
 * makes them by default (cosign v3): a leaf certificate with Fulcio's OIDC extensions and an
 * embedded SCT, a DSSE envelope of an in-toto statement naming the digest, and a {@code dsse} log
 * entry with its signed entry timestamp, inclusion proof and signed checkpoint, in a Sigstore
 * bundle v0.3.
 */
public final class TestSigstore {
  /** The host of the test log's URL: a checkpoint is signed in its name. */
  public static final String LOG_HOST = "rekor.sigstore.test";

  static final ASN1ObjectIdentifier FULCIO_ISSUER =
      new ASN1ObjectIdentifier("1.3.6.1.4.1.57264.1.8");
  static final ASN1ObjectIdentifier SCT_LIST = new ASN1ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2");
  static final String STATEMENT_TYPE = "application/vnd.in-toto+json";
  static final String START = "2020-01-01T00:00:00Z";

  private final KeyPair caKeys = TestPki.ecKeys();
  private final KeyPair logKeys = TestPki.ecKeys();
  private final KeyPair ctKeys = TestPki.ecKeys();
  private final X509Certificate ca;
  private final AtomicLong serials = new AtomicLong(1);

  public TestSigstore() {
    ca = caCertificate();
  }

  /**
   * What one signature is made of.
   *
   * @param issuer the OIDC issuer the certificate names
   * @param subject the identity (a URI subject alternative name, as a CI workflow's)
   * @param notBefore the certificate's validity start
   * @param notAfter the certificate's validity end
   * @param integrated when the log integrated the entry
   * @param logEntry whether the bundle carries its log entry
   * @param promise whether the log entry carries its signed entry timestamp
   */
  public record Signing(
      String issuer,
      String subject,
      Instant notBefore,
      Instant notAfter,
      Instant integrated,
      boolean logEntry,
      boolean promise) {

    /** A certificate valid for ten minutes around now, logged now. */
    public static Signing of(String issuer, String subject) {
      Instant now = Instant.now();
      return new Signing(
          issuer, subject, now.minusSeconds(300), now.plusSeconds(300), now, true, true);
    }

    /** A certificate that expired before the log integrated the signature. */
    public Signing expired() {
      Instant now = Instant.now();
      return new Signing(
          issuer, subject, now.minusSeconds(3600), now.minusSeconds(3000), now, logEntry, promise);
    }

    public Signing withoutLogEntry() {
      return new Signing(issuer, subject, notBefore, notAfter, integrated, false, promise);
    }

    /** The log entry without its signed entry timestamp (the inclusion proof only). */
    public Signing withoutPromise() {
      return new Signing(issuer, subject, notBefore, notAfter, integrated, logEntry, false);
    }
  }

  /**
   * The {@code trusted_root.json} of this instance, as {@code cosign trusted-root create} writes.
   */
  public String trustedRootJson() {
    return "{\"mediaType\":\"application/vnd.dev.sigstore.trustedroot+json;version=0.1\","
        + "\"tlogs\":["
        + log("https://" + LOG_HOST, logKeys.getPublic())
        + "],\"certificateAuthorities\":[{\"subject\":{\"organization\":\"capstan-test\","
        + "\"commonName\":\"sigstore-test\"},\"uri\":\"https://fulcio.sigstore.test\","
        + "\"certChain\":{\"certificates\":[{\"rawBytes\":\""
        + b64(encoded(ca))
        + "\"}]},\"validFor\":{\"start\":\""
        + START
        + "\"}}],\"ctlogs\":["
        + log("https://ctfe.sigstore.test", ctKeys.getPublic())
        + "],\"timestampAuthorities\":[]}";
  }

  private static String log(String url, PublicKey key) {
    return "{\"baseUrl\":\""
        + url
        + "\",\"hashAlgorithm\":\"SHA2_256\",\"publicKey\":{\"rawBytes\":\""
        + b64(key.getEncoded())
        + "\",\"keyDetails\":\"PKIX_ECDSA_P256_SHA_256\",\"validFor\":{\"start\":\""
        + START
        + "\"}},\"logId\":{\"keyId\":\""
        + b64(sha256(key.getEncoded()))
        + "\"}}";
  }

  /** A Sigstore bundle (v0.3 JSON) signing the manifest {@code digest} ({@code sha256:<hex>}). */
  public String bundle(String digest, Signing signing) throws Exception {
    KeyPair leafKeys = TestPki.ecKeys();
    X509Certificate leaf = leaf(leafKeys.getPublic(), signing);
    String statement =
        "{\"_type\":\"https://in-toto.io/Statement/v1\",\"subject\":[{\"name\":\"artifact\","
            + "\"digest\":{\"sha256\":\""
            + digest.substring("sha256:".length())
            + "\"}}],\"predicateType\":\"https://sigstore.dev/cosign/sign/v1\",\"predicate\":{}}";
    byte[] payload = statement.getBytes(StandardCharsets.UTF_8);
    byte[] signature = sign(leafKeys.getPrivate(), pae(payload));
    String material = "{\"certificate\":{\"rawBytes\":\"" + b64(encoded(leaf)) + "\"},";
    material +=
        "\"tlogEntries\":["
            + (signing.logEntry() ? entry(leaf, payload, signature, signing) : "")
            + "]}";
    return "{\"mediaType\":\"application/vnd.dev.sigstore.bundle.v0.3+json\","
        + "\"verificationMaterial\":"
        + material
        + ",\"dsseEnvelope\":{\"payload\":\""
        + b64(payload)
        + "\",\"payloadType\":\""
        + STATEMENT_TYPE
        + "\",\"signatures\":[{\"sig\":\""
        + b64(signature)
        + "\",\"keyid\":\"\"}]}}";
  }

  /** The log's {@code dsse} entry of the envelope, in a tree of two leaves, as Rekor v1 logs it. */
  private String entry(X509Certificate leaf, byte[] payload, byte[] signature, Signing signing)
      throws Exception {
    Instant integrated = signing.integrated();
    String body =
        "{\"apiVersion\":\"0.0.1\",\"kind\":\"dsse\",\"spec\":{\"envelopeHash\":{\"algorithm\":"
            + "\"sha256\",\"value\":\""
            + hex(sha256(payload))
            + "\"},\"payloadHash\":{\"algorithm\":\"sha256\",\"value\":\""
            + hex(sha256(payload))
            + "\"},\"signatures\":[{\"signature\":\""
            + b64(signature)
            + "\",\"verifier\":\""
            + b64(TestPki.pem(leaf).getBytes(StandardCharsets.UTF_8))
            + "\"}]}}";
    byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
    long index = serials.incrementAndGet() * 2;
    String logId = hex(sha256(logKeys.getPublic().getEncoded()));
    String signable =
        "{\"body\":\""
            + b64(bodyBytes)
            + "\",\"integratedTime\":"
            + integrated.getEpochSecond()
            + ",\"logID\":\""
            + logId
            + "\",\"logIndex\":"
            + index
            + "}";
    byte[] set = sign(logKeys.getPrivate(), signable.getBytes(StandardCharsets.UTF_8));
    byte[] leafHash = sha256(concat(new byte[] {0}, bodyBytes));
    byte[] sibling = sha256("the other leaf".getBytes(StandardCharsets.UTF_8));
    byte[] root = sha256(concat(new byte[] {1}, concat(leafHash, sibling)));
    // the proof is of a two-leaf tree of the log's shard: the entry beside its one sibling
    return "{\"logIndex\":\""
        + index
        + "\",\"logId\":{\"keyId\":\""
        + b64(HexFormat.of().parseHex(logId))
        + "\"},\"kindVersion\":{\"kind\":\"dsse\",\"version\":\"0.0.1\"},\"integratedTime\":\""
        + integrated.getEpochSecond()
        + "\","
        + (signing.promise()
            ? "\"inclusionPromise\":{\"signedEntryTimestamp\":\"" + b64(set) + "\"},"
            : "")
        + "\"inclusionProof\":{\"logIndex\":\"0\",\"rootHash\":\""
        + b64(root)
        + "\",\"treeSize\":\"2\",\"hashes\":[\""
        + b64(sibling)
        + "\"],\"checkpoint\":{\"envelope\":\""
        + checkpoint(root).replace("\n", "\\n")
        + "\"}},\"canonicalizedBody\":\""
        + b64(bodyBytes)
        + "\"}";
  }

  /** A signed note of the tree head, as a checkpoint is written. */
  private String checkpoint(byte[] root) throws Exception {
    String header = LOG_HOST + "\n2\n" + b64(root) + "\n";
    byte[] signature = sign(logKeys.getPrivate(), header.getBytes(StandardCharsets.UTF_8));
    byte[] hint = sha256(logKeys.getPublic().getEncoded());
    byte[] keySig = concat(new byte[] {hint[0], hint[1], hint[2], hint[3]}, signature);
    return header + "\n\u2014 " + LOG_HOST + " " + b64(keySig) + "\n";
  }

  private X509Certificate leaf(PublicKey key, Signing signing) throws Exception {
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            new X500Name("CN=sigstore-test,O=capstan-test"),
            BigInteger.valueOf(serials.incrementAndGet()),
            Date.from(signing.notBefore()),
            Date.from(signing.notAfter()),
            new X500Name("CN=signer"),
            key);
    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_codeSigning));
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName(GeneralName.uniformResourceIdentifier, signing.subject())));
    builder.addExtension(FULCIO_ISSUER, false, new DERUTF8String(signing.issuer()));
    // The CT log signs the precertificate: the certificate's TBS without the SCT list.
    X509Certificate precertificate = signed(builder);
    byte[] sct = sct(precertificateTbs(precertificate), signing.notBefore());
    ByteArrayOutputStream list = new ByteArrayOutputStream();
    writeNumber(list, sct.length + 2, 2);
    writeNumber(list, sct.length, 2);
    list.write(sct);
    builder.addExtension(SCT_LIST, false, new DEROctetString(list.toByteArray()));
    return signed(builder);
  }

  /** An RFC 6962 SCT of a precertificate entry, by the CT log's key. */
  private byte[] sct(byte[] tbs, Instant when) throws Exception {
    long timestamp = when.toEpochMilli();
    ByteArrayOutputStream signed = new ByteArrayOutputStream();
    signed.write(0); // v1
    signed.write(0); // certificate_timestamp
    writeNumber(signed, timestamp, 8);
    writeNumber(signed, 1, 2); // precert_entry
    signed.write(sha256(caKeys.getPublic().getEncoded()));
    writeNumber(signed, tbs.length, 3);
    signed.write(tbs);
    writeNumber(signed, 0, 2); // no extensions
    byte[] signature = sign(ctKeys.getPrivate(), signed.toByteArray());
    ByteArrayOutputStream sct = new ByteArrayOutputStream();
    sct.write(0);
    sct.write(sha256(ctKeys.getPublic().getEncoded()));
    writeNumber(sct, timestamp, 8);
    writeNumber(sct, 0, 2);
    sct.write(4); // sha256
    sct.write(3); // ecdsa
    writeNumber(sct, signature.length, 2);
    sct.write(signature);
    return sct.toByteArray();
  }

  private static byte[] precertificateTbs(X509Certificate certificate) throws Exception {
    TBSCertificate tbs = Certificate.getInstance(certificate.getEncoded()).getTBSCertificate();
    V3TBSCertificateGenerator generator = new V3TBSCertificateGenerator();
    generator.setSerialNumber(tbs.getSerialNumber());
    generator.setSignature(tbs.getSignature());
    generator.setIssuer(tbs.getIssuer());
    generator.setStartDate(tbs.getStartDate());
    generator.setEndDate(tbs.getEndDate());
    generator.setSubject(tbs.getSubject());
    generator.setSubjectPublicKeyInfo(tbs.getSubjectPublicKeyInfo());
    generator.setIssuerUniqueID((DERBitString) tbs.getIssuerUniqueId());
    generator.setSubjectUniqueID((DERBitString) tbs.getSubjectUniqueId());
    generator.setExtensions(tbs.getExtensions());
    return generator.generateTBSCertificate().getEncoded();
  }

  private X509Certificate caCertificate() {
    try {
      X500Name name = new X500Name("CN=sigstore-test,O=capstan-test");
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name,
              BigInteger.ONE,
              Date.from(Instant.parse(START)),
              Date.from(Instant.now().plusSeconds(86400 * 365)),
              name,
              caKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return signed(builder);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private X509Certificate signed(X509v3CertificateBuilder builder) throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
  }

  /** The pre-authentication encoding of a DSSE envelope, which its signature covers. */
  static byte[] pae(byte[] payload) {
    byte[] type = STATEMENT_TYPE.getBytes(StandardCharsets.UTF_8);
    String head = "DSSEv1 " + type.length + " " + STATEMENT_TYPE + " " + payload.length + " ";
    return concat(head.getBytes(StandardCharsets.UTF_8), payload);
  }

  private static byte[] sign(PrivateKey key, byte[] data) throws GeneralSecurityException {
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(key);
    signer.update(data);
    return signer.sign();
  }

  private static void writeNumber(ByteArrayOutputStream out, long value, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      out.write((int) (value >>> (8 * i)) & 0xff);
    }
  }

  private static byte[] encoded(X509Certificate certificate) {
    try {
      return certificate.getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static String b64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
