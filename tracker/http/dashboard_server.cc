// DashboardServer: the listening socket, the token rule and the routes; each route asks
// api_json/leaderboard for its document and answers it as JSON or renders it (pages.h).
#include "tracker/http/dashboard_server.h"

#include <chrono>
#include <httplib.h>
#include <mutex>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "runtime/core/abbreviate.h"
#include "spdlog/spdlog.h"
#include "tracker/http/api_json.h"
#include "tracker/http/leaderboard.h"
#include "tracker/http/model_job_json.h"
#include "tracker/http/pages.h"
#include "tracker/http/query_token.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

// Connections served at once, and how long one may be silent (reading a request, or idle between
// requests on a kept-alive connection) before it is closed.
constexpr size_t kConnectionThreads = 64;
constexpr time_t kIdleSeconds = 2;

using nlohmann::json;

constexpr char kJson[] = "application/json";
constexpr char kHtml[] = "text/html; charset=utf-8";
constexpr char kTokenCookie[] = "tunefarm_token";

bool IsLoopback(const std::string& addr) {
  return absl::StartsWith(addr, "127.") || addr == "::1" || absl::StartsWith(addr, "::ffff:127.");
}

// Constant time in the token's length, so a wrong guess says nothing about how close it was.
bool SameToken(const std::string& given, const std::string& token) {
  unsigned diff = given.size() == token.size() ? 0 : 1;
  for (size_t i = 0; i < token.size(); ++i) {
    diff |= static_cast<unsigned char>(token[i]) ^
            static_cast<unsigned char>(i < given.size() ? given[i] : 0);
  }
  return diff == 0;
}

std::string CookieToken(const httplib::Request& req) {
  const std::string cookies = req.get_header_value("Cookie");
  const std::string prefix = absl::StrCat(kTokenCookie, "=");
  for (absl::string_view part : absl::StrSplit(cookies, ';')) {
    part = absl::StripAsciiWhitespace(part);
    if (absl::StartsWith(part, prefix)) return std::string(part.substr(prefix.size()));
  }
  return "";
}

// Whether cpp-httplib can tell where a request's body ends. A POST without Content-Length (and
// not chunked) makes it read until the client closes or the read times out, then answer a bare
// 400, so such a request is refused first with a message that says what to send.
bool BodyLengthKnown(const httplib::Request& req) {
  if (req.method != "POST" && req.method != "PUT" && req.method != "PATCH") return true;
  return req.has_header("Content-Length") ||
         absl::StrContains(absl::AsciiStrToLower(req.get_header_value("Transfer-Encoding")),
                           "chunked");
}

int HttpStatus(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

}  // namespace

struct DashboardServer::Impl {
  Impl(DashboardOptions o, Dispatcher& d, JobManager& j, const Metrics& m, ModelJobManager* mj)
      : options(std::move(o)), dispatcher(d), jobs(j), metrics(m), model_jobs(mj) {}

  DashboardOptions options;
  Dispatcher& dispatcher;
  JobManager& jobs;
  const Metrics& metrics;
  ModelJobManager* model_jobs;  // null: a dashboard without model jobs (their paths are 404)
  std::mutex store_mu;          // one query at a time on the dashboard's own connection
  std::unique_ptr<tuner::RecordStore> store;
  httplib::Server server;
  std::thread thread;
  int port = 0;
  std::mutex stop_mu;
  bool stopped = false;

  // The token rule: nothing without a token; loopback reads are open; changes and remote
  // requests need `Authorization: Bearer`, `?token=` or (reads only) the cookie ?token= set.
  bool Authorized(const httplib::Request& req, httplib::Response& res) {
    if (options.token.empty()) return true;
    const bool read_only = req.method == "GET" || req.method == "HEAD";
    if (read_only && IsLoopback(req.remote_addr)) return true;
    const std::string auth = req.get_header_value("Authorization");
    if (absl::StartsWith(auth, "Bearer ") && SameToken(auth.substr(7), options.token)) return true;
    if (SameToken(QueryTokenOf(req.target), options.token)) {
      if (read_only) {
        res.set_header("Set-Cookie", absl::StrCat(kTokenCookie, "=", options.token,
                                                  "; Path=/; HttpOnly; SameSite=Strict"));
      }
      return true;
    }
    if (read_only && SameToken(CookieToken(req), options.token)) return true;
    res.status = 401;
    res.set_header("WWW-Authenticate", "Bearer");
    res.set_content(json{{"error",
                          "missing or wrong token: send Authorization: Bearer <token> "
                          "or ?token=<token>"}}
                        .dump(),
                    kJson);
    return false;
  }

  // Whether a page's data may still change: a job is queued or running.
  bool AnyJobUnfinished() const { return !jobs.List(/*include_finished=*/false, 1).empty(); }

  void Page(const httplib::Request& req, httplib::Response& res, const std::string& title,
            const std::string& fragment, bool live) {
    if (req.has_param("fragment")) {
      res.set_header("X-Live", live ? "1" : "0");
      res.set_content(fragment, kHtml);
    } else {
      res.set_content(http::PageShell(title, fragment, live), kHtml);
    }
  }

  void Fail(const httplib::Request& req, httplib::Response& res, const absl::Status& s) {
    res.status = HttpStatus(s);
    if (absl::StartsWith(req.path, "/api/")) {
      res.set_content(json{{"error", std::string(s.message())}}.dump(), kJson);
    } else {
      Page(req, res, "error", http::ErrorFragment(res.status, std::string(s.message())), false);
    }
  }

  absl::StatusOr<json> Leaderboard() {
    absl::StatusOr<json> board;
    {
      std::lock_guard<std::mutex> lock(store_mu);
      board = http::LeaderboardJson(*store);
    }
    if (board.ok()) {
      (*board)["models"] =
          model_jobs != nullptr ? http::ModelLeaderboardJson(*model_jobs) : json::array();
    }
    return board;
  }
  absl::StatusOr<json> JobDetail(const std::string& id) {
    std::lock_guard<std::mutex> lock(store_mu);
    return http::JobDetailJson(jobs, *store, id, options.clock->NowMs());
  }
  absl::StatusOr<json> ModelJobs() {
    if (model_jobs == nullptr) return absl::NotFoundError("this tracker serves no model jobs");
    return http::ModelJobsJson(*model_jobs, options.clock->NowMs());
  }
  absl::StatusOr<json> ModelJobDetail(const std::string& id) {
    if (model_jobs == nullptr) return absl::NotFoundError("this tracker serves no model jobs");
    std::lock_guard<std::mutex> lock(store_mu);
    return http::ModelJobDetailJson(*model_jobs, *store, id, options.clock->NowMs());
  }
  absl::StatusOr<json> Record(const std::string& id_text) {
    int64_t id = 0;
    if (!absl::SimpleAtoi(id_text, &id)) {
      return absl::NotFoundError(absl::StrCat("no record with id ", id_text));
    }
    std::lock_guard<std::mutex> lock(store_mu);
    return http::RecordJson(*store, id);
  }

  void Routes();
};

void DashboardServer::Impl::Routes() {
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (!Authorized(req, res)) return httplib::Server::HandlerResponse::Handled;
    if (!BodyLengthKnown(req)) {
      res.status = 411;
      res.set_content(
          json{{"error", absl::StrCat(req.method, " ", runtime::Abbreviate(req.path),
                                      " needs a Content-Length header; with no body send "
                                      "Content-Length: 0 (curl -X POST -d '' URL)")}}
              .dump(),
          kJson);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // Unknown paths: 404 in the kind of the path (the handlers' own errors already have a body).
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    // 404 from routing; other codes come from cpp-httplib itself (a malformed request).
    const std::string path = runtime::Abbreviate(req.path);
    std::string message = res.status == 404
                              ? absl::StrCat("no such path: ", path)
                              : absl::StrCat("HTTP ", res.status, " for ", req.method, " ", path);
    if (res.status == 400) {
      absl::StrAppend(&message,
                      ": the request could not be read (a malformed request line or header, or a "
                      "body that does not match its Content-Length)");
    }
    if (absl::StartsWith(req.path, "/api/")) {
      res.set_content(json{{"error", message}}.dump(), kJson);
    } else {
      res.set_content(http::PageShell("error", http::ErrorFragment(res.status, message), false),
                      kHtml);
    }
  });

  // --- JSON API ---
  server.Get("/api/workers", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(http::WorkersJson(dispatcher, options.clock->NowMs()).dump(), kJson);
  });
  server.Get("/api/jobs", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(http::JobsJson(jobs, options.clock->NowMs()).dump(), kJson);
  });
  server.Get(R"(/api/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = JobDetail(req.matches[1]);
    doc.ok() ? res.set_content(doc->dump(), kJson) : Fail(req, res, doc.status());
  });
  server.Post(R"(/api/jobs/([^/]+)/cancel)",
              [this](const httplib::Request& req, httplib::Response& res) {
                absl::StatusOr<farm_api::JobStatus> job = jobs.Cancel(req.matches[1]);
                if (!job.ok()) return Fail(req, res, job.status());
                spdlog::info("dashboard: job {} cancelled from {}", job->id, req.remote_addr);
                res.set_content(http::JobJson(*job, options.clock->NowMs()).dump(), kJson);
              });
  server.Get("/api/model_jobs", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = ModelJobs();
    doc.ok() ? res.set_content(doc->dump(), kJson) : Fail(req, res, doc.status());
  });
  server.Get(R"(/api/model_jobs/([^/]+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               absl::StatusOr<json> doc = ModelJobDetail(req.matches[1]);
               doc.ok() ? res.set_content(doc->dump(), kJson) : Fail(req, res, doc.status());
             });
  server.Post(R"(/api/model_jobs/([^/]+)/cancel)",
              [this](const httplib::Request& req, httplib::Response& res) {
                if (model_jobs == nullptr) {
                  return Fail(req, res, absl::NotFoundError("this tracker serves no model jobs"));
                }
                absl::StatusOr<farm_api::ModelJobStatus> job = model_jobs->Cancel(req.matches[1]);
                if (!job.ok()) return Fail(req, res, job.status());
                spdlog::info("dashboard: model job {} cancelled from {}", job->id, req.remote_addr);
                res.set_content(http::ModelJobJson(*job, options.clock->NowMs()).dump(), kJson);
              });
  server.Get("/api/workloads", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = Leaderboard();
    doc.ok() ? res.set_content(doc->dump(), kJson) : Fail(req, res, doc.status());
  });
  server.Get(R"(/api/records/([^/]+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               absl::StatusOr<json> doc = Record(req.matches[1]);
               doc.ok() ? res.set_content(doc->dump(), kJson) : Fail(req, res, doc.status());
             });
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(RenderMetricsText(metrics, dispatcher, jobs, model_jobs),
                    "text/plain; version=0.0.4");
  });

  // --- pages ---
  server.Get("/", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> board = Leaderboard();
    if (!board.ok()) return Fail(req, res, board.status());
    const int64_t now = options.clock->NowMs();
    Page(req, res, "overview",
         http::OverviewFragment(http::WorkersJson(dispatcher, now), http::JobsJson(jobs, now),
                                *board),
         AnyJobUnfinished());
  });
  server.Get("/fleet", [this](const httplib::Request& req, httplib::Response& res) {
    Page(req, res, "fleet",
         http::FleetFragment(http::WorkersJson(dispatcher, options.clock->NowMs())),
         AnyJobUnfinished());
  });
  server.Get("/jobs", [this](const httplib::Request& req, httplib::Response& res) {
    Page(req, res, "jobs", http::JobsFragment(http::JobsJson(jobs, options.clock->NowMs())),
         AnyJobUnfinished());
  });
  server.Get(R"(/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = JobDetail(req.matches[1]);
    if (!doc.ok()) return Fail(req, res, doc.status());
    const bool live = (*doc)["job"]["state"] == "queued" || (*doc)["job"]["state"] == "running";
    Page(req, res, absl::StrCat("job ", std::string(req.matches[1])), http::JobFragment(*doc),
         live);
  });
  server.Get("/models", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = ModelJobs();
    if (!doc.ok()) return Fail(req, res, doc.status());
    Page(req, res, "models", http::ModelJobsFragment(*doc), AnyJobUnfinished());
  });
  server.Get(R"(/models/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = ModelJobDetail(req.matches[1]);
    if (!doc.ok()) return Fail(req, res, doc.status());
    const json& state = (*doc)["model_job"]["state"];
    Page(req, res, absl::StrCat("model job ", std::string(req.matches[1])),
         http::ModelJobFragment(*doc), state == "queued" || state == "running");
  });
  server.Get("/workloads", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = Leaderboard();
    if (!doc.ok()) return Fail(req, res, doc.status());
    Page(req, res, "workloads", http::WorkloadsFragment(*doc), AnyJobUnfinished());
  });
  server.Get(R"(/records/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<json> doc = Record(req.matches[1]);
    if (!doc.ok()) return Fail(req, res, doc.status());
    Page(req, res, absl::StrCat("record ", std::string(req.matches[1])), http::RecordFragment(*doc),
         false);
  });
}

absl::StatusOr<std::unique_ptr<DashboardServer>> DashboardServer::Start(
    DashboardOptions options, Dispatcher& dispatcher, JobManager& jobs, const Metrics& metrics,
    std::unique_ptr<tuner::RecordStore> records, ModelJobManager* model_jobs) {
  if (records == nullptr) return absl::InvalidArgumentError("the dashboard needs a record store");
  const size_t colon = options.listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos || !absl::SimpleAtoi(options.listen.substr(colon + 1), &port) ||
      port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("dashboard address '", options.listen, "' is not HOST:PORT"));
  }
  std::string host = options.listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  auto impl = std::make_unique<Impl>(std::move(options), dispatcher, jobs, metrics, model_jobs);
  impl->store = std::move(records);
  impl->Routes();
  // cpp-httplib gives each connection a pool thread until the connection closes (8 by default),
  // so a few slow or idle clients could take them all. More threads, and a connection that sends
  // nothing for kIdleSeconds gives its thread back (docs/farm.md, "Security and limits").
  impl->server.new_task_queue = [] { return new httplib::ThreadPool(kConnectionThreads); };
  impl->server.set_read_timeout(kIdleSeconds, 0);
  impl->server.set_write_timeout(kIdleSeconds, 0);
  impl->server.set_keep_alive_timeout(kIdleSeconds);
  // cpp-httplib sets SO_REUSEPORT by default: a second tracker could then bind the same port and
  // the two would answer at random. SO_REUSEADDR alone still allows a restart on a port whose
  // old connections linger in TIME_WAIT.
  impl->server.set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  if (port == 0) {
    port = impl->server.bind_to_any_port(host);
  } else if (!impl->server.bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) {
    return absl::UnavailableError(
        absl::StrCat("dashboard cannot listen on ", impl->options.listen));
  }
  impl->port = port;
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->server.listen_after_bind(); });
  // cpp-httplib 0.11 has no wait_until_ready: a stop() before the loop runs would be lost.
  for (int i = 0; i < 5000 && !impl->server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  spdlog::info("dashboard on http://{}:{}", host, port);
  return std::unique_ptr<DashboardServer>(new DashboardServer(std::move(impl)));
}

DashboardServer::DashboardServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

DashboardServer::~DashboardServer() { Stop(); }

void DashboardServer::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

int DashboardServer::port() const { return impl_->port; }

}  // namespace tunefarm::tracker
