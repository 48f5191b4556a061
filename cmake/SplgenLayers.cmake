# One static library per folder of the generator, with its dependencies declared, in the
# layer order of docs/design.md ("Layers"). Each library's build first runs
# cmake/check_layer_includes.cmake over its sources: an #include of a project folder that
# is not the library's own or one of its (transitive) dependencies fails the build.
#
#   splgen_add_layer(NAME FOLDERS dir... [DEPENDS layer...] [LINK target...])
# makes the library splgen_NAME from FOLDERS/*.cpp, linked PUBLIC to splgen_DEPENDS and LINK.

function(splgen_layer_folders layer out)  # the folders of layer and of every layer below it
  get_property(folders GLOBAL PROPERTY SPLGEN_LAYER_${layer}_FOLDERS)
  get_property(deps GLOBAL PROPERTY SPLGEN_LAYER_${layer}_DEPENDS)
  foreach(dep IN LISTS deps)
    splgen_layer_folders(${dep} below)
    list(APPEND folders ${below})
  endforeach()
  list(REMOVE_DUPLICATES folders)
  set(${out} ${folders} PARENT_SCOPE)
endfunction()

function(splgen_add_layer name)
  cmake_parse_arguments(L "" "" "FOLDERS;DEPENDS;LINK" ${ARGN})
  set(sources)
  set(files)
  foreach(folder IN LISTS L_FOLDERS)
    file(GLOB cpp CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.cpp)
    file(GLOB h CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.h)
    list(APPEND sources ${cpp})
    list(APPEND files ${cpp} ${h})
  endforeach()
  foreach(dep IN LISTS L_DEPENDS)
    if(NOT TARGET splgen_${dep})
      message(FATAL_ERROR "splgen_add_layer(${name}): layer '${dep}' is not declared before it")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY SPLGEN_LAYER_${name}_FOLDERS ${L_FOLDERS})
  set_property(GLOBAL PROPERTY SPLGEN_LAYER_${name}_DEPENDS ${L_DEPENDS})
  splgen_layer_folders(${name} allowed)

  add_library(splgen_${name} STATIC ${sources})
  target_include_directories(splgen_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  list(TRANSFORM L_DEPENDS PREPEND splgen_ OUTPUT_VARIABLE dep_targets)
  target_link_libraries(splgen_${name} PUBLIC ${dep_targets} ${L_LINK})

  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layers/${name}.checked)
  list(JOIN files "|" file_list)
  list(JOIN allowed "|" allowed_list)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${name} "-DFILES=${file_list}" "-DALLOWED=${allowed_list}"
            -DROOT=${PROJECT_SOURCE_DIR} -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/check_layer_includes.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/check_layer_includes.cmake
    COMMENT "Checking the includes of layer ${name}" VERBATIM)
  add_custom_target(splgen_${name}_layering DEPENDS ${stamp})
  add_dependencies(splgen_${name} splgen_${name}_layering)
endfunction()
