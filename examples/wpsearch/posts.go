package main

import (
	"fmt"
	"strings"
)

// post is one article of the blog. Bodies are assembled in Go from the
// post's own lines and a few paragraphs of its category, so the example
// needs no data files yet serves articles of a realistic size (2–3 KB).
type post struct {
	ID        int64
	Slug      string
	Title     string
	Category  string
	Published string // YYYY-MM-DD
	Tags      []string
	Summary   string   // one or two sentences: the link's description
	Steps     []string // what the article walks through
	Body      string   // the whole article, Markdown
}

// blog is the blog's articles, by id order. Ids are not contiguous, as in
// any CMS where drafts were deleted.
var blog = buildBlog()

func buildBlog() []post {
	posts := []post{
		{ID: 3, Slug: "migrate-joomla-to-wordpress", Title: "Migrating a Joomla site to WordPress without losing SEO", Category: "migration", Published: "2024-03-12",
			Tags: []string{"joomla", "redirects", "seo"}, Summary: "A step-by-step migration of a 900-article Joomla site, keeping every URL alive with 301 redirects.",
			Steps: []string{"Export articles, categories and authors with the FG Joomla to WordPress importer, in a staging copy.", "Map every old URL to its new permalink in a CSV file and load it into the Redirection plugin.", "Crawl the old sitemap against staging and fix every URL that does not answer 301 then 200."}},
		{ID: 4, Slug: "object-cache-redis", Title: "Object caching with Redis: when it helps and when it does not", Category: "performance", Published: "2024-03-20",
			Tags: []string{"caching", "redis", "database"}, Summary: "Measuring a persistent object cache on three sites: a 40% win on a WooCommerce shop, nothing on a brochure site.",
			Steps: []string{"Install Redis on the same host and the Redis Object Cache drop-in, then flush the cache once.", "Compare the number of queries per page with Query Monitor before and after, on logged-in pages.", "Watch memory: set maxmemory and an allkeys-lru policy so that Redis evicts instead of failing."}},
		{ID: 5, Slug: "page-cache-nginx", Title: "Full-page caching at the edge with nginx FastCGI cache", Category: "performance", Published: "2024-04-02",
			Tags: []string{"caching", "nginx", "ttfb"}, Summary: "Serving anonymous visitors from nginx's FastCGI cache cut time to first byte from 600 ms to 30 ms.",
			Steps: []string{"Declare a fastcgi_cache_path and a cache key that includes the scheme, host and request URI.", "Bypass the cache for logged-in users, the cart, checkout and any request carrying a wordpress_logged_in cookie.", "Purge on publish with the Nginx Helper plugin, and check the X-Cache header on a few pages."}},
		{ID: 7, Slug: "wp-cli-everyday", Title: "Ten WP-CLI commands I use every day", Category: "tooling", Published: "2024-04-15",
			Tags: []string{"wp-cli", "automation", "shell"}, Summary: "From search-replace to cron event run: the WP-CLI commands that replace most trips to the admin screens.",
			Steps: []string{"Use wp search-replace with --dry-run and --precise before any domain change.", "List and run overdue cron events with wp cron event list and wp cron event run --due-now.", "Script plugin updates per site with wp plugin update --all --dry-run, then for real, inside a maintenance window."}},
		{ID: 8, Slug: "hardening-wp-login", Title: "Hardening wp-login.php against credential stuffing", Category: "security", Published: "2024-04-28",
			Tags: []string{"login", "brute-force", "2fa"}, Summary: "Rate limiting, two-factor authentication and an application firewall rule stopped 50,000 login attempts a day.",
			Steps: []string{"Rate-limit POST requests to wp-login.php and xmlrpc.php at the web server, per IP address.", "Require two-factor authentication for every account that can publish or install plugins.", "Disable XML-RPC entirely when no app needs it, and log every failed login to a separate file."}},
		{ID: 9, Slug: "gutenberg-block-patterns", Title: "Building reusable block patterns for an editorial team", Category: "editorial", Published: "2024-05-06",
			Tags: []string{"gutenberg", "blocks", "patterns"}, Summary: "Five block patterns gave writers consistent layouts without a page builder or custom CSS.",
			Steps: []string{"Register patterns from PHP files in the theme's patterns folder, with a title, categories and keywords.", "Lock the layout blocks of a pattern and leave only the text and images editable.", "Review the patterns with the writers and retire the ones nobody uses after a month."}},
		{ID: 11, Slug: "woocommerce-checkout-speed", Title: "Making the WooCommerce checkout fast again", Category: "performance", Published: "2024-05-21",
			Tags: []string{"woocommerce", "checkout", "profiling"}, Summary: "Profiling a slow checkout found three plugins calling remote APIs on every page load.",
			Steps: []string{"Profile the checkout with a staging copy and an APM, looking for outgoing HTTP calls.", "Move shipping-rate and tax lookups behind transients with a short expiry.", "Switch the shop to the block checkout and drop the plugins it makes redundant."}},
		{ID: 12, Slug: "multisite-or-not", Title: "Multisite or separate installs? Choosing for twelve regional sites", Category: "hosting", Published: "2024-06-03",
			Tags: []string{"multisite", "architecture", "maintenance"}, Summary: "Why a network of regional sites stayed as separate installs managed with shared tooling.",
			Steps: []string{"List what the sites share (theme, plugins, users) and what differs (domains, editors, release pace).", "Estimate the blast radius of a bad plugin update on a network versus on one site.", "Automate the separate installs with Composer and WP-CLI so that they stay in step."}},
		{ID: 14, Slug: "rest-api-headless", Title: "Going headless with the WordPress REST API and a static front end", Category: "development", Published: "2024-06-18",
			Tags: []string{"rest-api", "headless", "jamstack"}, Summary: "Serving a marketing site from a static front end fed by the REST API, and what we gave up.",
			Steps: []string{"Expose only the post types and fields the front end needs, with register_rest_field and _fields.", "Rebuild the static site on publish with a webhook, and preview drafts through an authenticated route.", "Keep forms, search and comments working, which a static front end does not give for free."}},
		{ID: 15, Slug: "backups-that-restore", Title: "Backups that actually restore: testing WordPress backups monthly", Category: "hosting", Published: "2024-07-01",
			Tags: []string{"backups", "restore", "disaster-recovery"}, Summary: "A monthly restore drill found two of five backup setups unable to bring a site back.",
			Steps: []string{"Back up the database and wp-content separately, off the server, with a retention policy.", "Restore the latest backup into a throwaway environment every month, with a checklist.", "Time the restore and write down every manual step, then automate the steps you wrote down."}},
		{ID: 16, Slug: "image-optimization-avif", Title: "Serving AVIF and WebP images without breaking old browsers", Category: "performance", Published: "2024-07-15",
			Tags: []string{"images", "avif", "webp"}, Summary: "Converting the media library to AVIF and WebP halved page weight on image-heavy posts.",
			Steps: []string{"Generate AVIF and WebP variants on upload, keeping the original JPEG as the fallback.", "Serve them with picture elements or content negotiation on the Accept header, never by user agent.", "Set explicit width and height on every image so that layout does not shift while it loads."}},
		{ID: 18, Slug: "plugin-audit", Title: "Auditing forty plugins: what we removed and why", Category: "plugins", Published: "2024-08-02",
			Tags: []string{"plugins", "audit", "maintenance"}, Summary: "A plugin audit removed eighteen plugins, most of them duplicating what core or the theme already did.",
			Steps: []string{"List every active plugin with its last update date, its author and what it is used for.", "Deactivate candidates on staging one at a time and run the end-to-end tests after each.", "Replace small plugins with a few lines in a must-use plugin that the team owns."}},
		{ID: 19, Slug: "custom-post-types-done-right", Title: "Custom post types done right: labels, capabilities and archives", Category: "development", Published: "2024-08-19",
			Tags: []string{"custom-post-types", "capabilities", "rewrite"}, Summary: "The register_post_type arguments that matter, and the rewrite flush everyone forgets.",
			Steps: []string{"Register the post type in a plugin, not the theme, so that content survives a theme change.", "Give it its own capability type and map_meta_cap, then grant capabilities per role.", "Flush rewrite rules on activation only, never on every request."}},
		{ID: 21, Slug: "core-web-vitals-lcp", Title: "Fixing Largest Contentful Paint on a news homepage", Category: "performance", Published: "2024-09-04",
			Tags: []string{"core-web-vitals", "lcp", "fonts"}, Summary: "Preloading the hero image and self-hosting fonts brought LCP from 4.1 s to 1.9 s on mobile.",
			Steps: []string{"Find the LCP element in the field data, not only in a lab run on a fast laptop.", "Preload the hero image with fetchpriority high and stop lazy-loading images above the fold.", "Self-host the web fonts with font-display swap and subset them to the characters used."}},
		{ID: 22, Slug: "editorial-workflow", Title: "An editorial workflow with custom statuses and review", Category: "editorial", Published: "2024-09-17",
			Tags: []string{"workflow", "roles", "review"}, Summary: "Custom statuses and a review step let six writers and two editors publish without stepping on each other.",
			Steps: []string{"Add statuses for pitched, in review and ready, and show them as columns in the posts list.", "Notify the assigned editor when a post enters review, by email or chat.", "Keep the revision history and require a note when an editor sends a post back."}},
		{ID: 24, Slug: "staging-to-production", Title: "Pushing from staging to production without overwriting orders", Category: "hosting", Published: "2024-10-01",
			Tags: []string{"staging", "deployment", "database"}, Summary: "Why database pushes break shops, and the code-only deployment that replaced them.",
			Steps: []string{"Deploy code (theme, plugins, configuration) from Git, never the production database from staging.", "Move content changes with export and import of the specific posts, or make them on production.", "Keep configuration in code with constants and options set by a must-use plugin."}},
		{ID: 25, Slug: "security-headers", Title: "Security headers for a WordPress site, one by one", Category: "security", Published: "2024-10-14",
			Tags: []string{"headers", "csp", "hsts"}, Summary: "HSTS, a Content Security Policy in report-only mode first, and the headers that are no longer worth sending.",
			Steps: []string{"Send Strict-Transport-Security once every subdomain serves HTTPS, starting with a short max-age.", "Start a Content Security Policy in report-only mode and read the reports for two weeks.", "Drop X-XSS-Protection and set Referrer-Policy and Permissions-Policy instead."}},
		{ID: 27, Slug: "search-that-works", Title: "Replacing the default search with something readers can use", Category: "plugins", Published: "2024-10-29",
			Tags: []string{"search", "relevance", "elasticsearch"}, Summary: "The default search ranks by date; weighting titles and adding synonyms doubled clicks on results.",
			Steps: []string{"Log what readers search for and which searches return nothing.", "Weight title matches above body matches and add synonyms for the top failing searches.", "Move to a dedicated search engine only when the database search is too slow, not before."}},
		{ID: 28, Slug: "translation-polylang-wpml", Title: "Running a bilingual site: Polylang, WPML or two installs", Category: "plugins", Published: "2024-11-08",
			Tags: []string{"i18n", "polylang", "wpml"}, Summary: "Comparing the two translation plugins and separate installs on a French and English site.",
			Steps: []string{"Decide whether every post is translated or each language has its own editorial line.", "Check that the language switcher links to the translated post, not the other language's home page.", "Set hreflang tags and a sitemap per language, and test them with a crawler."}},
		{ID: 30, Slug: "php-upgrade", Title: "Upgrading PHP from 7.4 to 8.3 on a legacy WordPress site", Category: "hosting", Published: "2024-11-22",
			Tags: []string{"php", "upgrade", "compatibility"}, Summary: "Running PHPCompatibility over the code base and fixing twenty deprecations before the switch.",
			Steps: []string{"Scan themes and plugins with PHPCompatibilityWP for the target version.", "Switch staging to the new version with error logging on and click through every template.", "Keep the old version available for a quick switch back during the first week."}},
		{ID: 31, Slug: "database-cleanup", Title: "Cleaning up a bloated wp_options table", Category: "performance", Published: "2024-12-03",
			Tags: []string{"database", "autoload", "transients"}, Summary: "Autoloaded options had grown to 12 MB; trimming them took a second off every uncached page.",
			Steps: []string{"Measure the size of autoloaded options with a SQL query on option_value length.", "Find the plugins that left options behind and delete them, after a backup.", "Stop autoloading large options that are read on one admin screen only."}},
		{ID: 33, Slug: "theme-json", Title: "theme.json for designers: colors, spacing and typography in one file", Category: "development", Published: "2024-12-16",
			Tags: []string{"theme-json", "block-themes", "design-system"}, Summary: "Moving a design system into theme.json removed most of the theme's custom CSS.",
			Steps: []string{"Define the palette, font sizes and spacing scale as presets, and turn off custom values.", "Set per-block defaults so that editors start from the design, not from blank blocks.", "Generate the style guide page from the same presets so that it never drifts."}},
		{ID: 34, Slug: "malware-cleanup", Title: "Cleaning up a hacked WordPress site, step by step", Category: "security", Published: "2025-01-09",
			Tags: []string{"malware", "incident-response", "integrity"}, Summary: "Restoring a compromised site from known-good sources instead of deleting suspicious files one by one.",
			Steps: []string{"Take the site offline, keep a copy of everything for analysis, and rotate every password and key.", "Reinstall core, themes and plugins from their official sources and compare checksums with wp core verify-checksums.", "Search the database for injected scripts and unknown administrator accounts before going back online."}},
		{ID: 36, Slug: "comments-spam", Title: "Stopping comment spam without a captcha", Category: "plugins", Published: "2025-01-23",
			Tags: []string{"comments", "spam", "moderation"}, Summary: "A honeypot field, a minimum time to submit and link limits caught 99% of spam with no captcha.",
			Steps: []string{"Add a hidden honeypot field and reject submissions that fill it.", "Reject comments submitted less than five seconds after the page loaded.", "Hold comments with more than one link for moderation instead of publishing them."}},
		{ID: 37, Slug: "cron-real", Title: "Replacing WP-Cron with a real system cron", Category: "tooling", Published: "2025-02-05",
			Tags: []string{"cron", "scheduling", "wp-cli"}, Summary: "Why scheduled posts went out late on a quiet site, and the one-line system cron that fixed it.",
			Steps: []string{"Set DISABLE_WP_CRON to true in wp-config.php.", "Run wp cron event run --due-now every minute from the system crontab, as the web server user.", "Alert when an event is more than ten minutes overdue."}},
		{ID: 39, Slug: "accessibility-audit", Title: "An accessibility audit of a WordPress theme", Category: "editorial", Published: "2025-02-19",
			Tags: []string{"accessibility", "wcag", "contrast"}, Summary: "Keyboard navigation, contrast and headings: the fixes that mattered most for screen reader users.",
			Steps: []string{"Navigate every template with the keyboard alone and fix focus order and visible focus.", "Check color contrast of text and buttons against WCAG AA, including hover states.", "Teach editors to use headings in order and to write alternative text that says what the image shows."}},
		{ID: 40, Slug: "hosting-benchmarks", Title: "Benchmarking four managed WordPress hosts with the same site", Category: "hosting", Published: "2025-03-04",
			Tags: []string{"hosting", "benchmarks", "ttfb"}, Summary: "The same site, the same plugins, four hosts: uncached TTFB varied by a factor of three.",
			Steps: []string{"Deploy an identical copy of the site to each host, with page caching off for the first run.", "Measure uncached and cached TTFB from three regions, a hundred requests each.", "Compare what support answered to the same three questions, which mattered as much as speed."}},
		{ID: 42, Slug: "gutenberg-custom-block", Title: "Writing a custom Gutenberg block with block.json", Category: "development", Published: "2025-03-18",
			Tags: []string{"gutenberg", "blocks", "react"}, Summary: "A small testimonial block: block.json, a dynamic render in PHP and no build step for the styles.",
			Steps: []string{"Describe the block in block.json: attributes, supports and the files it needs.", "Render it in PHP with render.php so that markup changes do not invalidate saved posts.", "Register it with register_block_type pointing at the folder, and test it in the editor and on the front end."}},
		{ID: 43, Slug: "mcp-for-wordpress", Title: "Exposing WordPress search to AI agents with MCP resource links", Category: "development", Published: "2025-04-01",
			Tags: []string{"mcp", "ai-agents", "rest-api"}, Summary: "Returning resource links from a search tool keeps an agent's context small; it reads only the posts it needs.",
			Steps: []string{"Expose each post as a resource with a stable URI, readable with resources/read.", "Make the search tool return resource_link blocks with a title and a one-line description, not the posts.", "Measure the size of a search result with links and with full posts, and keep the difference in mind."}},
		{ID: 45, Slug: "uptime-monitoring", Title: "Monitoring a WordPress site beyond a ping", Category: "tooling", Published: "2025-04-16",
			Tags: []string{"monitoring", "alerts", "uptime"}, Summary: "Checking that the homepage shows recent posts, not only that it answers 200.",
			Steps: []string{"Check a page for a string that only appears when the site works, such as the latest post's title.", "Monitor the admin login and the checkout with synthetic transactions, every five minutes.", "Send alerts to a channel people read, with a runbook link in every alert."}},
	}
	for i := range posts {
		posts[i].Body = articleBody(&posts[i], posts)
	}
	return posts
}

// categoryText holds, per category, a paragraph of context and one of
// detail that every article of the category shares.
var categoryText = map[string][2]string{
	"migration": {
		"Moving a site between content management systems is mostly about what readers and search engines already know: URLs, titles and the links other sites point at. The content itself is the easy part. A migration plan that starts from the URL inventory, and treats every page that loses its address as a bug, avoids the traffic drop that usually follows a relaunch.",
		"Keep the old site running, read-only, until the redirects have been checked against real traffic for a few weeks. Server logs are the best source: every 404 on the new site that was a 200 on the old one is a redirect to add.",
	},
	"performance": {
		"Performance work on WordPress starts with measurement: which pages are slow, for whom, and where the time goes. Anonymous visitors and logged-in users hit very different code paths, and a cache that helps one can do nothing for the other. Field data from real visitors matters more than a lab score from a fast laptop on a fast network.",
		"Change one thing at a time and measure again. Caches hide problems as well as they solve them: a page that is fast when cached and takes three seconds to build will still hurt the first visitor after every purge, and every editor in the admin screens.",
	},
	"tooling": {
		"Most WordPress maintenance is repetitive: updates, cache purges, user changes, scheduled tasks. Doing it by hand in the admin screens is slow and leaves no trace. Doing it from the command line or from scripts makes it repeatable, reviewable and easy to run on ten sites as well as on one.",
		"Keep the scripts in the same repository as the site's code, with a short README saying when to run each one. A script nobody remembers is no better than a manual step nobody remembers.",
	},
	"security": {
		"Most compromised WordPress sites are not the target of a clever attack: they run an outdated plugin, reuse a password, or leave an administrator account nobody uses. Security work is therefore mostly hygiene: fewer plugins, timely updates, strong authentication, and logs that someone reads.",
		"Write down what normal looks like (administrators, plugins, file checksums) so that a change stands out. An incident is much shorter when the team knows what the site should contain.",
	},
	"editorial": {
		"The block editor gives writers a lot of freedom, which is good for a single author and hard for a team that needs consistent pages. The editorial tools of WordPress (patterns, roles, statuses, revisions) exist to give that freedom a shape without getting in the way of writing.",
		"Involve the writers early. A workflow that editors designed alone tends to be bypassed; one that writers helped shape tends to be followed, and improved.",
	},
	"hosting": {
		"Hosting decisions outlive most other technical choices on a WordPress project: they set how deployments work, how backups are taken, how fast pages are built, and who answers at three in the morning. They deserve the same care as the choice of a theme or a plugin, and a periodic review.",
		"Whatever the host, keep the ability to leave: backups you can restore elsewhere, configuration in code, and DNS you control. It is the cheapest insurance there is.",
	},
	"plugins": {
		"Plugins are what make WordPress useful and what make it fragile. Each one adds code that runs on every request, options in the database, and an update to follow. A plugin is worth keeping when it does something the team needs and could not easily do in a few lines of its own code.",
		"Prefer plugins with a recent release, an active support forum and a clear scope. A plugin that does one thing well is easier to replace than one that does twenty things adequately.",
	},
	"development": {
		"WordPress development has changed more in the last few years than in the decade before: the block editor, block themes, theme.json and the REST API have replaced much of what used to be PHP templates and shortcodes. The old ways still work, which is why sites often mix both.",
		"Put site-specific code in a plugin or a must-use plugin rather than in the theme, and keep it under version control with tests for the parts that matter. A theme should change how the site looks, not what it does.",
	},
}

// pitfalls are shared warnings, one per article, picked by its id.
var pitfalls = []string{
	"Do it on a staging copy first. Every step here is reversible on staging; some of them are not on production, and the ones that look harmless are the ones people skip testing.",
	"Write down the state before the change: versions, settings and a few measurements. Without a baseline there is no way to tell whether the change helped, and no way back when it did not.",
	"Beware of plugins that promise to do all of this with one click. They usually do part of it, hide the rest, and leave the site depending on them for something a few lines of configuration would have done.",
	"Keep an eye on the logs for a week after the change. Problems that only show up under real traffic, on one browser or at one time of day, are the common ones.",
	"Tell the people who use the site what changed and when. Editors who find the admin screens different without warning will report it as a bug, and they will be right.",
}

// beforeYouStart are shared preambles, one per article, picked by its id.
var beforeYouStart = []string{
	"This article assumes shell access to the server (or at least WP-CLI through your host's console), a staging copy of the site that you can break, and a recent backup you have restored at least once. If one of the three is missing, fix that first: it will take less time than recovering from a mistake made without them.",
	"The examples were run on WordPress 6.5 and later, with PHP 8.2, on a single server behind a CDN. Older versions behave the same in the parts that matter here; where they do not, the text says so. Adapt paths and service names to your host.",
	"Set aside an afternoon, and do it at a quiet time for the site: early in the week, never before a launch or a holiday. Tell the editors in advance, so that nobody publishes in the middle of a change and wonders why the admin screens look different.",
}

func articleBody(p *post, all []post) string {
	ct := categoryText[p.Category]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", p.Title)
	fmt.Fprintf(&b, "*Published %s in %s. Tags: %s.*\n\n", p.Published, p.Category, strings.Join(p.Tags, ", "))
	fmt.Fprintf(&b, "%s\n\n## Context\n\n%s\n\n", p.Summary, ct[0])
	fmt.Fprintf(&b, "## Before you start\n\n%s\n\n## What we did\n\n", beforeYouStart[int(p.ID)%len(beforeYouStart)])
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	fmt.Fprintf(&b, "\n%s\n\n## Pitfalls\n\n%s\n\n", ct[1], pitfalls[int(p.ID)%len(pitfalls)])
	fmt.Fprintf(&b, "## Checklist\n\n")
	for _, t := range p.Tags {
		fmt.Fprintf(&b, "- [ ] Review %s on staging, then on production.\n", t)
	}
	var related []string
	for _, q := range all {
		if q.Category == p.Category && q.ID != p.ID && len(related) < 3 {
			related = append(related, fmt.Sprintf("- [%s](post://%d)\n", q.Title, q.ID))
		}
	}
	if len(related) > 0 {
		fmt.Fprintf(&b, "\n## Related posts\n\n%s", strings.Join(related, ""))
	}
	fmt.Fprintf(&b, "\n## Conclusion\n\n%s The short version: %s\n\nQuestions and corrections are welcome in the comments below; this article is updated when WordPress changes in a way that affects it.\n",
		"None of this is specific to one site: the same approach applies to any WordPress installation of this kind.",
		strings.ToLower(p.Summary[:1])+p.Summary[1:])
	return b.String()
}
