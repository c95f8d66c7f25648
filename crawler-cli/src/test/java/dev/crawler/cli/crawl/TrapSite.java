package dev.crawler.cli.crawl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * Two origins of 127.0.0.1 whose pages are generated, so they can be endless. The <b>trap</b>
 * origin has {@value #GOOD_PAGES} good pages beside two traps: a calendar ({@code /cal/YYYY-MM-DD}
 * links the previous and next day, the next month and the next year, without end) and a growing
 * path ({@code /a/} links {@code a/}, so {@code /a/a/}, {@code /a/a/a/}, …). The <b>archive</b>
 * origin is a dated archive of {@value #ARTICLES} articles as news sites have them: year pages,
 * month pages listing the month's articles and linking the previous and next month, and articles
 * ({@code /2019/03/14/4711.html}) linking the previous and next article. Every request is recorded.
 */
final class TrapSite implements AutoCloseable {

  static final int GOOD_PAGES = 30;
  static final int ARTICLES = 5_000;
  static final int FIRST_YEAR = 2016;
  static final int ARTICLES_PER_MONTH = 42;
  static final LocalDate CALENDAR_START = LocalDate.of(2026, 11, 23);

  private static final Pattern CALENDAR = Pattern.compile("/cal/(\\d{4}-\\d{2}-\\d{2})");
  private static final Pattern GROWING = Pattern.compile("(/a)+/");
  private static final Pattern GOOD = Pattern.compile("/good/(\\d+)");
  private static final Pattern YEAR = Pattern.compile("/(\\d{4})/");
  private static final Pattern MONTH = Pattern.compile("/(\\d{4})/(\\d{2})/");
  private static final Pattern ARTICLE =
      Pattern.compile("/(\\d{4})/(\\d{2})/(\\d{2})/(\\d+)\\.html");

  private final Server server = new Server();
  private final ServerConnector trap = connector();
  private final ServerConnector archive = connector();
  private final List<String> trapHits = Collections.synchronizedList(new ArrayList<>());
  private final List<String> archiveHits = Collections.synchronizedList(new ArrayList<>());

  TrapSite() throws Exception {
    server.addConnector(trap);
    server.addConnector(archive);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPathQuery();
            boolean isTrap = Request.getLocalPort(request) == trap.getLocalPort();
            (isTrap ? trapHits : archiveHits).add(path);
            String body = isTrap ? trapPage(path) : archivePage(path);
            response.setStatus(body == null ? 404 : 200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
            String html = body == null ? "<html><title>Not found</title></html>" : body;
            response.write(true, ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
          }
        });
    server.start();
  }

  String trap() {
    return "http://127.0.0.1:" + trap.getLocalPort();
  }

  String archive() {
    return "http://127.0.0.1:" + archive.getLocalPort();
  }

  /** The paths requested from the trap origin, robots.txt and sitemap included. */
  List<String> trapHits() {
    synchronized (trapHits) {
      return List.copyOf(trapHits);
    }
  }

  /** The paths requested from the archive origin. */
  List<String> archiveHits() {
    synchronized (archiveHits) {
      return List.copyOf(archiveHits);
    }
  }

  /** The path of article {@code n} (1 to {@value #ARTICLES}). */
  static String articlePath(int n) {
    int month = (n - 1) / ARTICLES_PER_MONTH;
    int day = 1 + (n - 1) % 28;
    return String.format(
        Locale.ROOT, "/%d/%02d/%02d/%d.html", FIRST_YEAR + month / 12, 1 + month % 12, day, n);
  }

  /** The months with articles: year and month of the first to the last article. */
  static int months() {
    return (ARTICLES - 1) / ARTICLES_PER_MONTH + 1;
  }

  private static String trapPage(String path) {
    if (path.equals("/")) {
      StringBuilder links =
          new StringBuilder(
              "<a href=\"/cal/" + CALENDAR_START + "\">Calendar</a> <a href=\"/a/\">A</a>");
      for (int i = 1; i <= GOOD_PAGES; i++) {
        links.append(" <a href=\"/good/").append(i).append("\">Good ").append(i).append("</a>");
      }
      return page("Trap home", links.toString());
    }
    Matcher good = GOOD.matcher(path);
    if (good.matches() && Integer.parseInt(good.group(1)) <= GOOD_PAGES) {
      return page("Good " + good.group(1), "<p>A real page.</p><a href=\"/\">Home</a>");
    }
    Matcher calendar = CALENDAR.matcher(path);
    if (calendar.matches()) {
      LocalDate day;
      try {
        day = LocalDate.parse(calendar.group(1));
      } catch (DateTimeParseException e) {
        return null;
      }
      return page(
          "Events on " + day,
          "<p>No events on "
              + day
              + ".</p>"
              + link("/cal/" + day.minusDays(1), "Previous day")
              + link("/cal/" + day.plusDays(1), "Next day")
              + link("/cal/" + day.plusMonths(1), "Next month")
              + link("/cal/" + day.plusYears(1), "Next year"));
    }
    if (GROWING.matcher(path).matches()) {
      return page("Level " + (path.length() - 1) / 2, "<a href=\"a/\">Deeper</a>");
    }
    return null;
  }

  private static String archivePage(String path) {
    if (path.equals("/")) {
      StringBuilder links = new StringBuilder();
      for (int year = FIRST_YEAR; year <= FIRST_YEAR + (months() - 1) / 12; year++) {
        links.append(link("/" + year + "/", "Year " + year));
      }
      links.append(link(articlePath(ARTICLES), "Latest"));
      return page("Archive", links.toString());
    }
    Matcher year = YEAR.matcher(path);
    if (year.matches()) {
      int y = Integer.parseInt(year.group(1));
      StringBuilder links = new StringBuilder();
      for (int m = 1; m <= 12; m++) {
        int index = (y - FIRST_YEAR) * 12 + m - 1;
        if (index >= 0 && index < months()) {
          links.append(link(String.format(Locale.ROOT, "/%d/%02d/", y, m), "Month " + m));
        }
      }
      return links.isEmpty() ? null : page("Year " + y, links.toString());
    }
    Matcher month = MONTH.matcher(path);
    if (month.matches()) {
      int index =
          (Integer.parseInt(month.group(1)) - FIRST_YEAR) * 12
              + Integer.parseInt(month.group(2))
              - 1;
      if (index < 0 || index >= months()) {
        return null;
      }
      StringBuilder links = new StringBuilder();
      for (int n = index * ARTICLES_PER_MONTH + 1;
          n <= Math.min(ARTICLES, (index + 1) * ARTICLES_PER_MONTH);
          n++) {
        links.append(link(articlePath(n), "Article " + n));
      }
      if (index > 0) {
        links.append(link(monthPath(index - 1), "Previous month"));
      }
      if (index < months() - 1) {
        links.append(link(monthPath(index + 1), "Next month"));
      }
      return page("Month " + index, links.toString());
    }
    Matcher article = ARTICLE.matcher(path);
    if (article.matches()) {
      int n = Integer.parseInt(article.group(4));
      if (n < 1 || n > ARTICLES || !articlePath(n).equals(path)) {
        return null;
      }
      String links =
          (n > 1 ? link(articlePath(n - 1), "Previous article") : "")
              + (n < ARTICLES ? link(articlePath(n + 1), "Next article") : "");
      return page("Article " + n, "<p>The text of article " + n + ".</p>" + links);
    }
    return null;
  }

  private static String monthPath(int index) {
    return String.format(Locale.ROOT, "/%d/%02d/", FIRST_YEAR + index / 12, 1 + index % 12);
  }

  private static String link(String href, String text) {
    return " <a href=\"" + href + "\">" + text + "</a>";
  }

  private static String page(String title, String body) {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
        + title
        + "</title></head><body>"
        + body
        + "</body></html>";
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
