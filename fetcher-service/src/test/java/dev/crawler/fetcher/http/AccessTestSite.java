package dev.crawler.fetcher.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.security.Authenticator;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.SecurityHandler;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.security.authentication.DigestAuthenticator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A site behind the doors crawlers meet, on 127.0.0.1: {@code /basic/} and {@code /digest/} need
 * HTTP Basic and Digest authentication (Jetty's own authenticators, realm {@code test}); {@code
 * /digest/md5/} and {@code /digest/sha256/} are two more Digest realms of the same origin ({@link
 * #MD5_REALM} offering MD5, {@link #SHA256_REALM} offering SHA-256), each its own context, so its
 * challenge names that context as its {@code domain}; {@code /members/} a session cookie that
 * {@code POST /login} sets for {@link #SESSION_SECONDS} seconds, {@code /api/} the header {@code
 * X-Api-Key}, and {@code /cookie/set} and {@code /cookie/show} set and echo a cookie; {@code /}
 * links one page of each area. It records every request's path and headers, so a test can see what
 * reached it, and every challenge (401) each realm answered with.
 */
public final class AccessTestSite implements AutoCloseable {

  public static final String USER = "crawler";
  public static final int SESSION_SECONDS = 2;
  public static final String MD5_REALM = "md5-area";
  public static final String SHA256_REALM = "sha256-area";

  /** What the site saw of one request. */
  public record Seen(String method, String path, Map<String, String> headers) {}

  private final String password;
  private final String apiKey;
  private final Server server = new Server();
  private final ServerConnector connector;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Set<String> sessions = ConcurrentHashMap.newKeySet();
  private final AtomicInteger logins = new AtomicInteger();
  private final Map<String, AtomicInteger> challenges = new ConcurrentHashMap<>();

  public AccessTestSite(String password, String apiKey) throws Exception {
    this(password, apiKey, null);
  }

  /** Over https, with the key store's certificate (password {@code secret}), when one is given. */
  public AccessTestSite(String password, String apiKey, Path keyStore) throws Exception {
    this.password = password;
    this.apiKey = apiKey;
    if (keyStore == null) {
      connector = new ServerConnector(server);
    } else {
      SslContextFactory.Server tls = new SslContextFactory.Server();
      tls.setKeyStorePath(keyStore.toString());
      tls.setKeyStorePassword("secret");
      connector = new ServerConnector(server, tls);
    }
    scheme = keyStore == null ? "http" : "https";
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    PathMappingsHandler paths = new PathMappingsHandler();
    paths.addMapping(PathSpec.from("/basic/*"), secured(new BasicAuthenticator(), "test"));
    paths.addMapping(PathSpec.from("/digest/*"), secured(new DigestAuthenticator(), "test"));
    paths.addMapping(PathSpec.from("/"), new Site());
    Handler.Wrapper recording =
        new Handler.Wrapper() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            Map<String, String> headers = new LinkedHashMap<>();
            request
                .getHeaders()
                .forEach(field -> headers.put(field.getLowerCaseName(), field.getValue()));
            seen.add(new Seen(request.getMethod(), request.getHttpURI().getPath(), headers));
            return super.handle(request, response, callback);
          }
        };
    recording.setHandler(
        new ContextHandlerCollection(
            new ContextHandler(secured(digest("MD5"), MD5_REALM), "/digest/md5"),
            new ContextHandler(secured(digest("SHA-256"), SHA256_REALM), "/digest/sha256"),
            new ContextHandler(paths, "/")));
    server.setHandler(recording);
    server.start();
  }

  private final String scheme;

  public String base() {
    return scheme + "://127.0.0.1:" + connector.getLocalPort();
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  public int logins() {
    return logins.get();
  }

  /** How many times each realm answered a request with a challenge (401), by realm. */
  public Map<String, Integer> challenges() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    challenges.forEach((realm, count) -> counts.put(realm, count.get()));
    return counts;
  }

  /** The site forgets every session, as one does on a restart. */
  public void endSessions() {
    sessions.clear();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  private static DigestAuthenticator digest(String algorithm) {
    DigestAuthenticator digest = new DigestAuthenticator();
    digest.setAlgorithm(algorithm);
    return digest;
  }

  /** The site behind the authenticator, in the realm; a 401 it answers is counted for the realm. */
  private Handler secured(Authenticator authenticator, String realm) {
    HashLoginService users = new HashLoginService(realm);
    UserStore store = new UserStore();
    store.addUser(USER, Credential.getCredential(password), new String[] {"user"});
    users.setUserStore(store);
    SecurityHandler.PathMapped security = new SecurityHandler.PathMapped(new Site());
    security.setLoginService(users);
    security.setAuthenticator(authenticator);
    security.setRealmName(realm);
    security.put("/*", Constraint.ANY_USER);
    return new Handler.Wrapper(security) {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        // counted as the answer starts, before the client can see it
        Response counting =
            new Response.Wrapper(request, response) {
              private boolean isCounted;

              @Override
              public void write(boolean last, ByteBuffer content, Callback written) {
                if (!isCounted && getStatus() == 401) {
                  isCounted = true;
                  challenges.computeIfAbsent(realm, key -> new AtomicInteger()).incrementAndGet();
                }
                super.write(last, content, written);
              }
            };
        return super.handle(request, counting, callback);
      }
    };
  }

  private final class Site extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String path = request.getHttpURI().getPath();
      if (path.equals("/")) {
        return page(
            response,
            callback,
            "<title>home</title><a href=\"/basic/1\">basic</a> <a href=\"/digest/1\">digest</a>"
                + " <a href=\"/members/1\">members</a> <a href=\"/api/1\">api</a>");
      }
      if (path.startsWith("/basic/") || path.startsWith("/digest/")) {
        return page(response, callback, "secret page " + path);
      }
      if (path.equals("/login") && request.getMethod().equals("POST")) {
        Fields form = Request.getParameters(request);
        if (USER.equals(form.getValue("user")) && password.equals(form.getValue("password"))) {
          logins.incrementAndGet();
          String session = UUID.randomUUID().toString();
          sessions.add(session);
          Response.addCookie(
              response,
              HttpCookie.build("SESSION", session).path("/").maxAge(SESSION_SECONDS).build());
          response.setStatus(302);
          response.getHeaders().put(HttpHeader.LOCATION, "/members/");
          callback.succeeded();
          return true;
        }
        response.setStatus(403);
        callback.succeeded();
        return true;
      }
      if (path.startsWith("/members/")) {
        String session =
            Request.getCookies(request).stream()
                .filter(cookie -> cookie.getName().equals("SESSION"))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse("");
        if (!sessions.contains(session)) {
          response.setStatus(302);
          response.getHeaders().put(HttpHeader.LOCATION, "/login");
          callback.succeeded();
          return true;
        }
        return page(response, callback, "members page " + path);
      }
      if (path.startsWith("/api/")) {
        if (!apiKey.equals(request.getHeaders().get("X-Api-Key"))) {
          response.setStatus(403);
          callback.succeeded();
          return true;
        }
        return page(response, callback, "api " + path);
      }
      if (path.equals("/cookie/set")) {
        Response.addCookie(response, HttpCookie.from("TRACK", "t-" + connector.getLocalPort()));
        return page(response, callback, "set");
      }
      if (path.equals("/cookie/show")) {
        String cookie = request.getHeaders().get(HttpHeader.COOKIE);
        return page(response, callback, cookie == null ? "none" : cookie);
      }
      response.setStatus(404);
      return page(response, callback, "no page at " + path);
    }

    private boolean page(Response response, Callback callback, String text) {
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
      response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
      return true;
    }
  }
}
