#!/usr/bin/env python3
"""Extracts the language fixtures: plain-text paragraphs of real translated documentation.

Sources (Debian 12 packages, installed with apt-get):
  apache2-doc         /usr/share/doc/apache2-doc/manual/<lang>/**/*.html   (Apache-2.0)
  manpages-<lang>     /usr/share/man/<lang>/man?/*.gz, rendered by man(1)  (GPL-3+)
  manpages-zh         /usr/share/man/zh_TW/man?/*.gz                       (GPL-2+ and others)

Writes <out>/<lang>.txt: '# <package> <file>' before each paragraph, one paragraph a line.
Deterministic: files sorted by name, at most one paragraph a file, PER_LANGUAGE paragraphs spread
evenly over the files that have one.
"""
import gzip
import html.parser
import os
import re
import subprocess
import sys

PER_LANGUAGE = 12
MIN_CHARS = 300
MIN_CJK_CHARS = 150
MAX_CHARS = 2000

APACHE = "/usr/share/doc/apache2-doc/manual"
# fixture language -> apache2-doc manual directory
APACHE_LANGUAGES = {"en": "en", "de": "de", "es": "es", "fr": "fr", "ja": "ja", "ko": "ko",
                    "tr": "tr"}
# fixture language -> (package, man directory)
MAN_LANGUAGES = {"cs": ("manpages-cs", "cs"), "da": ("manpages-da", "da"),
                 "el": ("manpages-el", "el"), "fi": ("manpages-fi", "fi"),
                 "hu": ("manpages-hu", "hu"), "id": ("manpages-id", "id"),
                 "it": ("manpages-it", "it"), "mk": ("manpages-mk", "mk"),
                 "no": ("manpages-nb", "nb"), "nl": ("manpages-nl", "nl"),
                 "pl": ("manpages-pl", "pl"), "pt": ("manpages-pt-br", "pt_BR"),
                 "ro": ("manpages-ro", "ro"), "ru": ("manpages-ru", "ru"),
                 "sr": ("manpages-sr", "sr"), "sv": ("manpages-sv", "sv"),
                 "uk": ("manpages-uk", "uk"), "vi": ("manpages-vi", "vi"),
                 "zh-CN": ("manpages-zh", "zh_CN"), "zh-TW": ("manpages-zh", "zh_TW")}
# at most this many manual pages rendered per language, spread evenly over the sorted list
MAX_MAN_FILES = 150
CJK = {"ja", "ko", "zh-CN", "zh-TW"}
ENGLISH = re.compile(r"\b(the|and|of|is|to|with|that)\b", re.IGNORECASE)


def cjk_share(text):
    cjk = sum(1 for c in text if 0x3040 <= ord(c) <= 0x9FFF or 0xAC00 <= ord(c) <= 0xD7AF)
    return cjk / max(1, len(text))


def is_prose(text, language, least=MIN_CHARS):
    if len(text) > MAX_CHARS:
        return False
    if language in CJK:
        return len(text) >= MIN_CJK_CHARS and cjk_share(text) >= 0.5
    if len(text) < least:
        return False
    letters = sum(1 for c in text if c.isalpha())
    if letters / len(text) < 0.7:
        return False
    # an untranslated paragraph left in a translation, or a translated one left among the English
    return (len(ENGLISH.findall(text)) >= 3) == (language == "en")


class Paragraphs(html.parser.HTMLParser):
    """The text of each <p> inside the page's content."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.paragraphs = []
        self.current = None

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.current = []
        elif tag in ("pre", "table") and self.current is not None:
            self.paragraphs.append("".join(self.current))
            self.current = None

    def handle_endtag(self, tag):
        if tag == "p" and self.current is not None:
            self.paragraphs.append("".join(self.current))
            self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current.append(data)


def collapse(text):
    return re.sub(r"\s+", " ", text).strip()


def apache_paragraphs(directory):
    found = []
    root = os.path.join(APACHE, directory)
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".html") or os.path.islink(path):
                continue
            raw = open(path, "rb").read()
            charset = re.search(rb'charset=([-A-Za-z0-9_]+)', raw)
            text = raw.decode(charset.group(1).decode() if charset else "utf-8", "replace")
            parser = Paragraphs()
            parser.feed(text)
            found.append((path, [collapse(p) for p in parser.paragraphs]))
    return found


def man_paragraphs(package, directory):
    listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True).stdout
    prefix = "/usr/share/man/%s/man" % directory
    files = sorted(f for f in listed.splitlines() if f.startswith(prefix) and f.endswith(".gz")
                   and os.path.isfile(f) and not os.path.islink(f))
    if len(files) > MAX_MAN_FILES:
        step = len(files) / MAX_MAN_FILES
        files = [files[int(i * step)] for i in range(MAX_MAN_FILES)]
    found = []
    for path in files:
        rendered = subprocess.run(["man", "-E", "UTF-8", "-l", path], capture_output=True,
                                  env=dict(os.environ, MANWIDTH="3000", MAN_KEEP_FORMATTING=""),
                                  ).stdout
        text = subprocess.run(["col", "-b"], input=rendered, capture_output=True).stdout.decode(
            "utf-8", "replace")
        blocks = re.split(r"\n\s*\n", text)
        found.append((path, [collapse(b) for b in blocks]))
    return found


def pick(language, files):
    candidates = []
    more = []  # a file's further paragraphs, used only when too few files have one
    for path, paragraphs in files:
        prose = [p for p in paragraphs if is_prose(p, language)]
        candidates += [(path, p) for p in prose[:1]]
        more += [(path, p) for p in prose[1:]]
    if len(candidates) < PER_LANGUAGE // 2:
        # short manual pages: a file's short prose blocks joined into one passage
        joined = []
        for path, paragraphs in files:
            blocks = [p for p in paragraphs if len(p) >= 60 and is_prose(p, language, 60)]
            text = " ".join(blocks)[:MAX_CHARS]
            if len(text) >= MIN_CHARS and not any(path == c[0] for c in candidates):
                joined.append((path, text))
        candidates += joined
    if len(candidates) < PER_LANGUAGE:
        step = max(1, len(more) // (PER_LANGUAGE - len(candidates)))
        candidates += more[::step][:PER_LANGUAGE - len(candidates)]
    if len(candidates) <= PER_LANGUAGE:
        return candidates
    step = len(candidates) / PER_LANGUAGE
    return [candidates[int(i * step)] for i in range(PER_LANGUAGE)]


def main(out):
    os.makedirs(out, exist_ok=True)
    jobs = [(lang, "apache2-doc", lambda d=d: apache_paragraphs(d))
            for lang, d in APACHE_LANGUAGES.items()]
    jobs += [(lang, p, lambda p=p, d=d: man_paragraphs(p, d))
             for lang, (p, d) in MAN_LANGUAGES.items()]
    only = set(sys.argv[2:])
    for language, package, files in jobs:
        if only and language not in only:
            continue
        chosen = pick(language, files())
        with open(os.path.join(out, language + ".txt"), "w", encoding="utf-8") as fixture:
            for path, paragraph in chosen:
                fixture.write("# %s %s\n%s\n" % (package, path, paragraph))
        print(language, len(chosen), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
