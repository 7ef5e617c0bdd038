// HtmlEscape: text from users and devices cannot open tags or leave a quoted attribute.
#include "tracker/http/html.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker::http {
namespace {

TEST(HtmlEscapeTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(HtmlEscape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(HtmlEscape("matmul:32,32,32:float32"), "matmul:32,32,32:float32");
  EXPECT_EQ(HtmlEscape(""), "");
}

}  // namespace
}  // namespace tunefarm::tracker::http
