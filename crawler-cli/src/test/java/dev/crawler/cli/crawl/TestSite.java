package dev.crawler.cli.crawl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A small site on three origins of 127.0.0.1 (three ports): A and B are seeded, C is only linked.
 * It has every case the end-to-end crawl must get right, and records every request it receives.
 */
final class TestSite implements AutoCloseable {

  /** One request as the server saw it. */
  record Hit(int port, String path, long nanoTime) {}

  private final Server server = new Server();
  private final ServerConnector a = connector();
  private final ServerConnector b = connector();
  private final ServerConnector c = connector();
  private final List<Hit> hits = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, Page> pages = new ConcurrentHashMap<>();

  private record Page(int status, String contentType, byte[] body, Map<String, String> headers) {}

  TestSite() throws Exception {
    server.addConnector(a);
    server.addConnector(b);
    server.addConnector(c);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            int port = Request.getLocalPort(request);
            String path = request.getHttpURI().getPathQuery();
            hits.add(new Hit(port, path, System.nanoTime()));
            Page page = pages.get(port + path);
            if (page == null) {
              page =
                  new Page(
                      404,
                      "text/html; charset=utf-8",
                      "<html><title>Not found</title></html>".getBytes(StandardCharsets.UTF_8),
                      Map.of());
            }
            response.setStatus(page.status());
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, page.contentType());
            page.headers().forEach((name, value) -> response.getHeaders().put(name, value));
            response.write(true, ByteBuffer.wrap(page.body()), callback);
            return true;
          }
        });
    server.start();
    defineA();
    defineB();
    html(c, "/c-page", "C page", "never crawled: C is not a seed's origin");
  }

  private void defineA() {
    text(
        a,
        "/robots.txt",
        "User-agent: *\nDisallow: /private/\n\nSitemap: " + origin(a) + "/sitemap.xml\n");
    String sitemap =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
            + "<url><loc>"
            + origin(a)
            + "/about</loc></url><url><loc>"
            + origin(a)
            + "/from-sitemap</loc><lastmod>2026-11-01</lastmod></url></urlset>";
    pages.put(
        a.getLocalPort() + "/sitemap.xml",
        new Page(200, "application/xml", sitemap.getBytes(StandardCharsets.UTF_8), Map.of()));
    html(a, "/from-sitemap", "From sitemap", "linked from nowhere, listed in the sitemap");
    html(
        a,
        "/",
        "Home of A",
        "<a href=\"/about\">About</a> <a href=\"private/secret\">Secret</a> <a href=\"/old\">Old</a>"
            + " <a href=\"/missing\">Missing</a> <a href=\"/dup\">Dup</a> <a href=\"/noindex\">Noindex</a>"
            + " <a href=\"/nofollow\">Nofollow</a> <a href=\"/frames\">Frames</a> <a href=\"/photo.png\">Photo</a> <a href=\"/data.json\">Data</a>"
            + " <img src=\"/logo.png\"> <a href=\""
            + origin(c)
            + "/c-page\">C</a> <a href=\""
            + origin(b)
            + "/\">B</a>"
            + " <a href=\"mailto:someone@example.org\">mail</a> <a href=\"/about#team\">Team</a>");
    html(a, "/about", "About A", "<a href=\"/\">Home</a>");
    redirect(a, "/old", "/new");
    html(a, "/new", "New A", "moved here");
    pages.put(
        a.getLocalPort() + "/dup",
        htmlPage(
            "<html><head><title>Dup</title><link rel=\"canonical\" href=\"/canonical\"></head><body>same <a href=\"/dup-only-link\">x</a></body></html>"));
    html(a, "/canonical", "Canonical", "the canonical page");
    pages.put(
        a.getLocalPort() + "/noindex",
        htmlPage(
            "<html><head><title>Noindex</title><meta name=\"robots\" content=\"noindex\"></head><body><a href=\"/from-noindex\">followed</a></body></html>"));
    html(a, "/from-noindex", "From noindex", "found on a noindex page");
    pages.put(
        a.getLocalPort() + "/nofollow",
        htmlPage(
            "<html><head><title>Nofollow</title><meta name=\"robots\" content=\"NOFOLLOW\"></head><body><a href=\"/never\">not followed</a></body></html>"));
    pages.put(
        a.getLocalPort() + "/frames",
        htmlPage(
            "<html><head><title>Frames</title></head><frameset><frame src=\"/frame-a\"><frame src=\"frame-b\"></frameset></html>"));
    html(a, "/frame-a", "Frame A", "<iframe src=\"/frame-c\"></iframe>");
    html(a, "/frame-b", "Frame B", "second frame");
    html(a, "/frame-c", "Frame C", "an iframe");
    pages.put(
        a.getLocalPort() + "/data.json",
        new Page(200, "application/json", "{\"a\": 1}".getBytes(StandardCharsets.UTF_8), Map.of()));
    pages.put(
        a.getLocalPort() + "/photo.png",
        new Page(
            200, "image/png", new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10}, Map.of()));
  }

  private void defineB() {
    html(
        b,
        "/",
        "Home of B",
        "<a href=\"/b1\">B1</a> <a href=\"" + origin(a) + "/about\">A's about</a>");
    html(b, "/b1", "B1", "<a href=\"/\">B home</a>");
  }

  String origin(ServerConnector connector) {
    return "http://127.0.0.1:" + connector.getLocalPort();
  }

  String a() {
    return origin(a);
  }

  String b() {
    return origin(b);
  }

  String c() {
    return origin(c);
  }

  List<Hit> hits() {
    synchronized (hits) {
      return List.copyOf(hits);
    }
  }

  private void html(ServerConnector connector, String path, String title, String body) {
    pages.put(
        connector.getLocalPort() + path,
        htmlPage(
            "<!DOCTYPE html><html lang=\"en\"><head><title>"
                + title
                + "</title></head><body><p>"
                + body
                + "</p></body></html>"));
  }

  private void text(ServerConnector connector, String path, String body) {
    pages.put(
        connector.getLocalPort() + path,
        new Page(
            200, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8), Map.of()));
  }

  private void redirect(ServerConnector connector, String path, String location) {
    pages.put(
        connector.getLocalPort() + path,
        new Page(301, "text/html; charset=utf-8", new byte[0], Map.of("Location", location)));
  }

  private static Page htmlPage(String html) {
    return new Page(
        200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  private ServerConnector connector() {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    return connector;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
