#pragma once

// PIR JSON snippets of tst_pirjsonfastreader (moc cannot read raw string literals).

#include <string>

inline const std::string kDocumentHead
    = R"({"base_code":{"magic":"pir","trainable":true,"version":1},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":)";
inline const std::string kDocumentOps = R"(,"ops":[)";
inline const std::string kParameter
    = R"({"#":"p","A":[0,1,1,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}},"OA":[1,0,1],"QA":[]})";
inline const std::string kScale
    = R"({"#":"1.scale","A":[{"AT":{"#":"0.a_f32","D":2.0},"N":"scale"},{"AT":{"#":"0.a_str","D":"/Layer/"},"N":"struct_name"}],"I":[{"%":1}],"O":[{"%":2,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}}],"OA":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},"N":"stop_gradient"}]})";
inline const std::string kUnknownOpKey = R"(,{"#":"1.relu","I":[{"%":1}],"O":[],"X":1})";
inline const std::string kUnsortedKeys = R"(,{"#":"1.relu","O":[],"I":[{"%":1}]})";
inline const std::string kUndefinedOperand = R"({"#":"1.relu","I":[{"%":7}],"O":[]})";
inline const std::string kDuplicateAttribute
    = R"({"#":"1.foo","A":[{"AT":{"#":"0.a_i32","D":1},"N":"a"},{"AT":{"#":"0.a_i32","D":2},"N":"a"}],"I":[],"O":[]})";
inline const std::string kUnknownAttributeKind
    = R"({"#":"1.foo","A":[{"AT":{"#":"9.a_new","D":1},"N":"a"}],"I":[],"O":[]})";
inline const std::string kBadAttribute
    = R"({"#":"1.foo","A":[{"AT":{"#":"0.a_i32"},"N":"a"}],"I":[],"O":[]})";
inline const std::string kBlockArgumentUse = R"({"#":"1.relu","I":[{"%":-1}],"O":[]})";
inline const std::string kBlockArguments
    = R"([{"#":-1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}}])";
inline const std::string kEscapedKey = R"(,{"\u0023":"1.relu","I":[{"%":1}],"O":[]})";
inline const std::string kTwoBlocks
    = R"({"base_code":{"magic":"pir","version":1},"program":{"regions":[{"blocks":[{"args":[],"ops":[]},{"args":[],"ops":[]}]}]}})";
inline const std::string kWrongMagic
    = R"({"base_code":{"magic":"pyr","version":1},"program":{"regions":[{"blocks":[{"ops":[]}]}]}})";
inline const std::string kDoubleId = R"(,{"#":"1.relu","I":[{"%":1.0}],"O":[]})";
inline const std::string kRelu
    = R"({"#":"1.relu","I":[{"%":1}],"O":[{"%":3,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}}]})";
inline const std::string kYield = R"({"#":"2.yield","I":[{"%":3}],"O":[]})";
inline const std::string kFull
    = R"(,{"#":"1.full","A":[],"I":[],"O":[{"%":2,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_bool"},[1],"NCHW",[],0]}}]},)";
inline const std::string kIfHead
    = R"({"#":"1.if","I":[{"%":2}],"O":[{"%":4,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}}],"regions":[{"#":"region_1","blocks":[{"#":"block_1","args":[],"ops":[)";
inline const std::string kIfSecondRegion
    = R"(]}]},{"#":"region_2","blocks":[{"#":"block_2","args":[],"ops":[)";

// Parameter flags as JSON booleans (read like 0/1), too few or too many, and a double (which the
// DOM reader refuses).
inline const std::string kParameterBoolFlags
    = R"({"#":"p","A":[false,true,true,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}},"OA":[true,false,1],"QA":[]})";
inline const std::string kParameterThreeA
    = R"({"#":"p","A":[0,1,1],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}},"OA":[1,0,1],"QA":[]})";
inline const std::string kParameterFourOA
    = R"({"#":"p","A":[0,1,1,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}},"OA":[1,0,1,1],"QA":[]})";
inline const std::string kParameterDoubleFlag
    = R"({"#":"p","A":[0,1.0,1,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,3],"NCHW",[],0]}},"OA":[1,0,1],"QA":[]})";
